#!/usr/bin/env python3
"""Whether batching Magika's inferences would pay: one ONNX Runtime session as uti makes it (one thread per run,
no spinning), the time per run and per sample of batches of 1, 4, 16 and 64 random inputs, in one run.

    .build-python/bin/python Benchmarks/model_batch.py [--seconds 2]

Needs Python's magika and onnxruntime (the repository's .build-python has them after .ci/run).
"""
import argparse
import glob
import json
import os
import time

import numpy as np
import onnxruntime

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2, help="how long each batch size runs")
    options = parser.parse_args()
    import magika
    models = sorted(glob.glob(os.path.join(os.path.dirname(magika.__file__), "models", "standard_v3_*")))
    model = models[-1]
    configuration = json.load(open(os.path.join(model, "config.min.json")))
    features = configuration["beg_size"] + configuration["end_size"]
    settings = onnxruntime.SessionOptions()
    settings.intra_op_num_threads = 1
    settings.inter_op_num_threads = 1
    settings.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(os.path.join(model, "model.onnx"), settings, providers=["CPUExecutionProvider"])
    print(f"{os.path.basename(model)}, {features} features, ONNX Runtime {onnxruntime.__version__}")
    print("| batch | ms per run | ms per sample |\n|---|---|---|")
    for batch in (1, 4, 16, 64):
        inputs = {"bytes": np.random.randint(0, 256, size=(batch, features)).astype(np.int32)}
        session.run(None, inputs)
        started, runs = time.perf_counter(), 0
        while time.perf_counter() - started < options.seconds:
            session.run(None, inputs)
            runs += 1
        elapsed = (time.perf_counter() - started) / runs
        print(f"| {batch} | {elapsed * 1000:.2f} | {elapsed / batch * 1000:.3f} |", flush=True)


if __name__ == "__main__":
    main()
