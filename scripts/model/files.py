"""Helpers the model scripts share (standard library only)."""
import hashlib


def sha256(path):
    """The file's sha256, in hex, read a megabyte at a time."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
