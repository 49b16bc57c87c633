#!/usr/bin/env python3
"""Makes Models/text-detection.onnx: PaddleOCR's PP-OCRv4 text detector as OpenCV 4.6's dnn loads it.

The model is `ch_PP-OCRv4_det_infer.onnx` as shipped inside the `rapidocr-onnxruntime==1.4.4`
wheel (PyPI; Apache-2.0, see Models/README.md). OpenCV 4.6's ONNX importer refuses its 24
`Clip` nodes ("Clip ... input_size() == 1, is 3": opset 11+ gives min and max as inputs). Three
rewrites, each the same function, in standard ONNX at opset 14:

1. `Conv` followed by a `Mul` and an `Add` of constant scalars (PP-LCNetV3's learnable affine
   blocks after a convolution) becomes one `Conv` with its weights × s and its bias × s + t.
2. `x * Clip(x + 3, 0, 6) / 6` becomes `HardSwish(x)` (an ONNX operator since opset 14; the
   model's opset goes from 12 to 14, which changes nothing for the other operators it uses).
   These two take the network's memory at 960 × 736 px from about 168 to 126 MiB in OpenCV 4.6
   (fewer layers, fewer intermediate maps), time unchanged.
3. Any other `Clip(x, lo, hi)` with constant bounds becomes `Relu(x − lo) − Relu(x − hi) + lo`
   (the `+ lo` left out when lo = 0): OpenCV 4.6's `Min` and `Max` refuse a constant operand.
   (None is left in this model after 2.)

    pip install onnx==1.* onnxruntime numpy
    pip download --no-deps rapidocr-onnxruntime==1.4.4 -d /tmp/wheel
    python3 scripts/convert-detector-model.py /tmp/wheel/rapidocr_onnxruntime-1.4.4-py3-none-any.whl

With onnxruntime present it also checks that both models give the same probability map on a
random image (max difference printed; it must stay below 1e-4).
"""
import hashlib
import os
import sys
import zipfile

import numpy as np
import onnx
from onnx import helper, numpy_helper

MEMBER = "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx"
EXPECTED_SHA256 = "d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9"


def scalar_operand(node, consts, op_type):
    """(the other input, the value) when `node` is `op_type` with one constant scalar operand."""
    if node is None or node.op_type != op_type or len(node.input) != 2:
        return None
    a, b = node.input
    for x, k in ((a, b), (b, a)):
        if k in consts and consts[k].size == 1 and x not in consts:
            return x, float(consts[k].ravel()[0])
    return None


def convert(data, opset=14):
    """The three rewrites of `data` (the model's bytes) at `opset`: at 14 the hard-swish becomes
    `HardSwish(x)`; below (a model whose other operators keep an older opset's form, such as
    `Squeeze` with its axes as an attribute) `x * HardSigmoid(x)`, alpha 1/6, beta 0.5, the same
    function. Returns the model and the counts of each rewrite."""
    model = onnx.load_from_string(data)
    graph = model.graph
    consts = {}
    for node in graph.node:
        if node.op_type == "Constant":
            consts[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
    for init in graph.initializer:
        consts[init.name] = numpy_helper.to_array(init)
    nodes = [n for n in graph.node if n.op_type != "Constant"]
    extra_inits = {}

    def new_const(name, value):
        extra_inits[name] = np.asarray(value, dtype=np.float32)
        consts[name] = extra_inits[name]
        return name

    def sole_consumer(name):
        users = [n for n in nodes if name in n.input]
        if len(users) != 1 or any(o.name == name for o in graph.output):
            return None
        return users[0]

    # 1. Conv → Mul(s) → Add(t) with scalar constants: folded into the Conv.
    dropped = set()
    folded = 0
    for node in nodes:
        if node.op_type != "Conv" or id(node) in dropped:
            continue
        mul = sole_consumer(node.output[0])
        scale = scalar_operand(mul, consts, "Mul")
        if scale is None:
            continue
        add = sole_consumer(mul.output[0])
        shift = scalar_operand(add, consts, "Add")
        s = np.float32(scale[1])
        t = np.float32(shift[1] if shift else 0.0)
        last = add if shift else mul
        weights = consts[node.input[1]]
        bias = consts[node.input[2]] if len(node.input) > 2 else np.zeros(weights.shape[0], np.float32)
        x = node.input[0]
        del node.input[:]
        node.input.extend([x, new_const(node.name + "__weights", weights * s), new_const(node.name + "__bias", bias * s + t)])
        node.output[0] = last.output[0]
        dropped.update({id(mul), id(last)})
        folded += 1
    nodes = [n for n in nodes if id(n) not in dropped]

    # 2. x * Clip(x + 3, 0, 6) / 6 → HardSwish(x).
    replaced = {}
    dropped = set()
    for node in nodes:
        plus3 = scalar_operand(node, consts, "Add")
        if plus3 is None or plus3[1] != 3.0:
            continue
        x = plus3[0]
        clip = sole_consumer(node.output[0])
        if clip is None or clip.op_type != "Clip" or len(clip.input) != 3:
            continue
        if any(b not in consts for b in clip.input[1:]):
            continue
        if float(consts[clip.input[1]]) != 0.0 or float(consts[clip.input[2]]) != 6.0:
            continue
        mul = sole_consumer(clip.output[0])
        if mul is None or mul.op_type != "Mul" or sorted(mul.input) != sorted([x, clip.output[0]]):
            continue
        div = sole_consumer(mul.output[0])
        by6 = scalar_operand(div, consts, "Div")
        if by6 is None or by6[0] != mul.output[0] or by6[1] != 6.0:
            continue
        if opset >= 14:
            replaced[id(node)] = [helper.make_node("HardSwish", [x], [div.output[0]], name=div.name + "__hardswish")]
        else:
            gate = div.output[0] + "__gate"
            replaced[id(node)] = [
                helper.make_node("HardSigmoid", [x], [gate], name=div.name + "__hardsigmoid", alpha=1 / 6, beta=0.5),
                helper.make_node("Mul", [x, gate], [div.output[0]], name=div.name + "__hardswish"),
            ]
        dropped.update({id(clip), id(mul), id(div)})
    nodes = [m for n in nodes if id(n) not in dropped for m in replaced.get(id(n), [n])]

    # 3. Any other Clip(x, lo, hi) = Relu(x − lo) − Relu(x − hi) + lo.
    rewritten = []
    clips = 0
    for node in nodes:
        if node.op_type != "Clip" or len(node.input) != 3:
            rewritten.append(node)
            continue
        clips += 1
        x, lo_name, hi_name = node.input
        if lo_name not in consts or hi_name not in consts:
            raise SystemExit(f"Clip {node.name}: its bounds are not constants")
        lo = float(consts[lo_name])
        hi = float(consts[hi_name])
        below, above = node.output[0] + "__below", node.output[0] + "__above"
        shifted_lo, shifted_hi = node.output[0] + "__xlo", node.output[0] + "__xhi"
        rewritten.append(helper.make_node("Sub", [x, new_const(node.name + "__lo", [lo])], [shifted_lo], name=node.name + "__sublo"))
        rewritten.append(helper.make_node("Relu", [shifted_lo], [below], name=node.name + "__relulo"))
        rewritten.append(helper.make_node("Sub", [x, new_const(node.name + "__hi", [hi])], [shifted_hi], name=node.name + "__subhi"))
        rewritten.append(helper.make_node("Relu", [shifted_hi], [above], name=node.name + "__reluhi"))
        if lo == 0:
            rewritten.append(helper.make_node("Sub", [below, above], [node.output[0]], name=node.name + "__diff"))
        else:
            diff = node.output[0] + "__diff"
            rewritten.append(helper.make_node("Sub", [below, above], [diff], name=node.name + "__diff"))
            rewritten.append(helper.make_node("Add", [diff, new_const(node.name + "__lo2", [lo])], [node.output[0]], name=node.name + "__add"))

    used = {name for n in rewritten for name in n.input}
    constants = [n for n in graph.node if n.op_type == "Constant" and n.output[0] in used]
    initializers = [i for i in graph.initializer if i.name in used and i.name not in extra_inits]
    del graph.node[:]
    graph.node.extend(constants + rewritten)
    del graph.initializer[:]
    graph.initializer.extend(initializers)
    graph.initializer.extend(numpy_helper.from_array(v, k) for k, v in extra_inits.items() if k in used)
    del model.opset_import[:]
    model.opset_import.extend([helper.make_opsetid("", opset)])
    onnx.checker.check_model(model)
    return model, folded, len(replaced), clips


def read_model(source, member, expected_sha256):
    """The model's bytes: `member` of the wheel `source`, or the file `source`; exits unless its
    sha256 is `expected_sha256`."""
    if source.endswith(".whl"):
        with zipfile.ZipFile(source) as wheel:
            data = wheel.read(member)
    else:
        data = open(source, "rb").read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected_sha256:
        raise SystemExit(f"unexpected model: sha256 {digest}, expected {expected_sha256}")
    return data


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    data = read_model(sys.argv[1], MEMBER, EXPECTED_SHA256)
    model, folded, hardswish, clips = convert(data)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Models", "text-detection.onnx")
    onnx.save(model, out)
    print(f"{folded} affine steps folded into their Conv, {hardswish} HardSwish, {clips} other Clip rewritten")
    print(f"wrote {os.path.normpath(out)}")
    print("sha256", hashlib.sha256(open(out, "rb").read()).hexdigest())
    try:
        import onnxruntime as ort
    except ImportError:
        return
    x = np.random.default_rng(0).uniform(-1, 1, (1, 3, 320, 480)).astype(np.float32)
    a = ort.InferenceSession(data, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    b = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    print("max difference of the probability maps:", float(np.abs(a - b).max()))


if __name__ == "__main__":
    main()
