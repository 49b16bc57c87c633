#!/usr/bin/env python3
"""Makes Models/text-detection.onnx: PaddleOCR's PP-OCRv4 text detector as OpenCV 4.6's dnn loads it.

The model is `ch_PP-OCRv4_det_infer.onnx` as shipped inside the `rapidocr-onnxruntime==1.4.4`
wheel (PyPI; Apache-2.0, see Models/README.md). OpenCV 4.6's ONNX importer refuses its 24
`Clip` nodes ("Clip ... input_size() == 1, is 3": opset 11+ gives min and max as inputs), and
its `Min` and `Max` refuse a constant operand, so each `Clip(x, lo, hi)` with constant bounds
becomes `Relu(x − lo) − Relu(x − hi) + lo` (the `+ lo` left out when lo = 0): the same function.
Nothing else changes.

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


def constant_value(graph, name):
    for init in graph.initializer:
        if init.name == name:
            return numpy_helper.to_array(init)
    for node in graph.node:
        if node.op_type == "Constant" and node.output[0] == name:
            return numpy_helper.to_array(node.attribute[0].t)
    raise SystemExit(f"Clip bound {name} is not a constant")


def convert(data):
    model = onnx.load_from_string(data)
    graph = model.graph
    nodes = []
    extra_inits = []
    clips = 0
    for node in graph.node:
        if node.op_type != "Clip" or len(node.input) != 3:
            nodes.append(node)
            continue
        clips += 1
        x, lo_name, hi_name = node.input
        lo = float(constant_value(graph, lo_name))
        hi = float(constant_value(graph, hi_name))
        # Clip(x, lo, hi) = Relu(x − lo) − Relu(x − hi) + lo: Relu, Sub and Add of a constant
        # are layers OpenCV 4.6 imports (its Min and Max refuse a constant operand).
        def const(suffix, value):
            name = node.name + suffix
            extra_inits.append(numpy_helper.from_array(np.array([value], dtype=np.float32), name))
            return name

        below, above = node.output[0] + "__below", node.output[0] + "__above"
        shifted_lo, shifted_hi = node.output[0] + "__xlo", node.output[0] + "__xhi"
        nodes.append(helper.make_node("Sub", [x, const("__lo", lo)], [shifted_lo], name=node.name + "__sublo"))
        nodes.append(helper.make_node("Relu", [shifted_lo], [below], name=node.name + "__relulo"))
        nodes.append(helper.make_node("Sub", [x, const("__hi", hi)], [shifted_hi], name=node.name + "__subhi"))
        nodes.append(helper.make_node("Relu", [shifted_hi], [above], name=node.name + "__reluhi"))
        if lo == 0:
            nodes.append(helper.make_node("Sub", [below, above], [node.output[0]], name=node.name + "__diff"))
        else:
            diff = node.output[0] + "__diff"
            nodes.append(helper.make_node("Sub", [below, above], [diff], name=node.name + "__diff"))
            nodes.append(helper.make_node("Add", [diff, const("__lo2", lo)], [node.output[0]], name=node.name + "__add"))
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(extra_inits)
    onnx.checker.check_model(model)
    return model, clips


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    source = sys.argv[1]
    if source.endswith(".whl"):
        with zipfile.ZipFile(source) as wheel:
            data = wheel.read(MEMBER)
    else:
        data = open(source, "rb").read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != EXPECTED_SHA256:
        raise SystemExit(f"unexpected model: sha256 {digest}, expected {EXPECTED_SHA256}")
    model, clips = convert(data)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Models", "text-detection.onnx")
    onnx.save(model, out)
    print(f"{clips} Clip nodes rewritten; wrote {os.path.normpath(out)}")
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
