#!/usr/bin/env python3
"""Makes Models/text-recognition.onnx and Models/text-recognition.txt: PaddleOCR's PP-OCRv4 text
recognizer as OpenCV 4.6's dnn loads it, and its characters.

The model is `ch_PP-OCRv4_rec_infer.onnx` as shipped inside the `rapidocr-onnxruntime==1.4.4`
wheel (PyPI; Apache-2.0, see Models/README.md): an SVTR-LCNet network that reads a text image
48 px high and gives, for each 8 px column step, the probability of each of its 6625 classes
(CTC: class 0 is the blank, then the characters of its dictionary, which the model carries in
its metadata, then the space). The rewrites, each the same function for a 48 × 320 input:

1. the detector's (scripts/convert-detector-model.py, at the model's opset 12): each `Conv`
   followed by a scalar `Mul` and `Add` folded into the `Conv`; each hard-swish written with
   `Clip` (which OpenCV 4.6 refuses) becomes `x * HardSigmoid(x)`;
2. the six `Reshape` targets the model computes from `Shape` (OpenCV 4.6 refuses a `Shape` of a
   dynamic input) become constants, -1 where they follow the input's width;
3. the input is fixed at 1 × 3 × 48 × 320 (40 column steps), and the 1-D constants added to or
   multiplying a 40-step sequence (its layer norms' and linear layers' weights and biases) are
   repeated over the 40 steps: OpenCV 4.6 does not broadcast a 1-D constant over a 3-D tensor;
4. the output keeps the classes of Latin writing only (the blank, ASCII, Latin-1 and Latin
   Extended letters, general punctuation, currency signs, the space): the last layer's weights
   and biases of the other classes are dropped, so that the network never answers a Chinese
   character for a Latin one, and its last layer is 30 times smaller.

The characters of the classes kept, one per line from class 1 (class 0 is the blank; the last
line is the space), go to Models/text-recognition.txt.

    pip install onnx==1.* onnxruntime numpy
    pip download --no-deps rapidocr-onnxruntime==1.4.4 -d /tmp/wheel
    python3 scripts/convert-recognizer-model.py /tmp/wheel/rapidocr_onnxruntime-1.4.4-py3-none-any.whl

With onnxruntime present it also checks that the rewritten model's probabilities of the classes
kept equal the original's renormalized over them on a random input (max difference printed; it
must stay below 1e-4).
"""
import hashlib
import importlib.util
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

MEMBER = "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
EXPECTED_SHA256 = "48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b"
HEIGHT, WIDTH = 48, 320
STEPS = WIDTH // 8

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("detector", os.path.join(here, "convert-detector-model.py"))
detector = importlib.util.module_from_spec(spec)
spec.loader.exec_module(detector)


def is_latin(c):
    """Whether a class's character is of Latin writing: what lovesnap reads (English, French)."""
    o = ord(c)
    return o < 0x250 or 0x2000 <= o <= 0x206F or 0x20A0 <= o <= 0x20CF or c in "€™"


def characters(model):
    """The model's classes: blank, its dictionary (metadata `character`), the space."""
    meta = {p.key: p.value for p in model.metadata_props}
    return ["blank"] + meta["character"].split("\n") + [" "]


def static_reshapes(model, original):
    """Rewrite 2: each Reshape whose target is computed becomes a constant target."""
    graph = model.graph
    producers = {o: n for n in graph.node for o in n.output}
    initializers = {i.name for i in graph.initializer}
    computed = [
        n for n in graph.node
        if n.op_type == "Reshape" and n.input[1] not in initializers
        and producers.get(n.input[1]) is not None and producers[n.input[1]].op_type != "Constant"
    ]
    import onnxruntime as ort

    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    for n in computed:
        probe.graph.output.append(helper.make_tensor_value_info(n.input[1], onnx.TensorProto.INT64, None))
    session = ort.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
    seen = [session.run([n.input[1] for n in computed], {"x": np.zeros((1, 3, HEIGHT, w), np.float32)})
            for w in (160, 320, 640)]
    for k, n in enumerate(computed):
        values = [s[k] for s in seen]
        target = [int(v[0]) if len(set(map(int, v))) == 1 else -1 for v in zip(*values)]
        if target.count(-1) > 1:
            raise SystemExit(f"Reshape {n.name}: more than one dimension follows the width: {target}")
        name = n.name + "__target"
        graph.initializer.append(numpy_helper.from_array(np.array(target, np.int64), name))
        n.input[1] = name
    return len(computed)


def prune(graph):
    """Drops the nodes and initializers nothing uses any more."""
    outputs = {o.name for o in graph.output}
    while True:
        used = {i for n in graph.node for i in n.input} | outputs
        kept = [n for n in graph.node if any(o in used for o in n.output)]
        if len(kept) == len(graph.node):
            break
        del graph.node[:]
        graph.node.extend(kept)
    used = {i for n in graph.node for i in n.input}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)


def repeat_sequence_constants(graph):
    """Rewrite 3: 1-D constants (Constant nodes) of Mul and Add repeated over the 40 steps."""
    constants = {n.output[0]: n for n in graph.node if n.op_type == "Constant"}
    repeated = 0
    for n in graph.node:
        if n.op_type not in ("Mul", "Add") or len(n.input) != 2 or n.input[1] not in constants:
            continue
        tensor = constants[n.input[1]].attribute[0].t
        value = numpy_helper.to_array(tensor)
        if value.ndim != 1 or value.size == 1:
            continue
        tiled = np.tile(value.reshape(1, 1, -1), (1, STEPS, 1)).astype(value.dtype)
        tensor.CopyFrom(numpy_helper.from_array(tiled, tensor.name))
        repeated += 1
    return repeated


def keep_latin_classes(graph, chars):
    """Rewrite 4: the last MatMul's and Add's columns of the Latin classes; returns their characters."""
    keep = [i for i, c in enumerate(chars) if i == 0 or is_latin(c)]
    softmax = [n for n in graph.node if n.op_type == "Softmax"][-1]
    producers = {o: n for n in graph.node for o in n.output}
    add = producers[softmax.input[0]]
    matmul = producers[add.input[0]]
    constants = {n.output[0]: n for n in graph.node if n.op_type == "Constant"}
    inits = {i.name: i for i in graph.initializer}

    def narrow(name, axis):
        holder = inits.get(name)
        tensor = holder if holder is not None else constants[name].attribute[0].t
        value = numpy_helper.to_array(tensor)
        tensor.CopyFrom(numpy_helper.from_array(np.take(value, keep, axis=axis), tensor.name))

    narrow(matmul.input[1], 1)
    narrow(add.input[1], -1)
    return [chars[i] for i in keep]


def convert(data):
    model, folded, hardswish, clips = detector.convert(data, opset=12)
    chars = characters(onnx.load_from_string(data))
    reshapes = static_reshapes(model, data)
    prune(model.graph)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    for d, v in zip(dims, (1, 3, HEIGHT, WIDTH)):
        d.ClearField("dim_param")
        d.dim_value = v
    repeated = repeat_sequence_constants(model.graph)
    kept = keep_latin_classes(model.graph, chars)
    for d, v in zip(model.graph.output[0].type.tensor_type.shape.dim, (1, STEPS, len(kept))):
        d.ClearField("dim_param")
        d.dim_value = v
    del model.metadata_props[:]
    onnx.checker.check_model(model)
    return model, kept, (folded, hardswish, clips, reshapes, repeated, len(chars))


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    data = detector.read_model(sys.argv[1], MEMBER, EXPECTED_SHA256)
    model, kept, counts = convert(data)
    models = os.path.join(here, "..", "Models")
    out = os.path.join(models, "text-recognition.onnx")
    onnx.save(model, out)
    with open(os.path.join(models, "text-recognition.txt"), "w", encoding="utf-8") as f:
        f.write("".join(c + "\n" for c in kept[1:]))
    folded, hardswish, clips, reshapes, repeated, classes = counts
    print(f"{folded} affine steps folded, {hardswish} hard-swish, {clips} other Clip, {reshapes} Reshape targets "
          f"made constant, {repeated} constants repeated over {STEPS} steps; {len(kept)} of {classes} classes kept")
    print(f"wrote {os.path.normpath(out)}")
    print("sha256", hashlib.sha256(open(out, "rb").read()).hexdigest())
    import onnxruntime as ort

    x = np.random.default_rng(0).uniform(-1, 1, (1, 3, HEIGHT, WIDTH)).astype(np.float32)
    a = ort.InferenceSession(data, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    b = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    logits = np.log(np.maximum(a, 1e-30))
    chars = characters(onnx.load_from_string(data))
    keep = [i for i, c in enumerate(chars) if i == 0 or is_latin(c)]
    sub = np.exp(logits[..., keep] - logits[..., keep].max(-1, keepdims=True))
    sub /= sub.sum(-1, keepdims=True)
    print("max difference of the probabilities:", float(np.abs(sub - b).max()))


if __name__ == "__main__":
    main()
