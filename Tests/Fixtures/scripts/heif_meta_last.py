"""Rewrites a HEIF file with its meta box after its mdat box (as some cameras and editors write it), shifting
the item locations: heif_meta_last.py IN OUT. Used by the tests to make such a file from a fresh one."""
import struct, sys

def boxes(data, start, end):
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        yield kind.decode("latin-1"), at, header, size
        at += size

def read_uint(data, at, size):
    return int.from_bytes(data[at:at + size], "big") if size else 0

def shift_iloc(data, at, end, delta):
    version = data[at]
    at += 4
    offset_size, length_size = data[at] >> 4, data[at] & 15
    base_size, index_size = data[at + 1] >> 4, data[at + 1] & 15
    at += 2
    count_size = 4 if version == 2 else 2
    count = read_uint(data, at, count_size)
    at += count_size
    for _ in range(count):
        at += count_size  # item id
        if version in (1, 2):
            method = read_uint(data, at, 2) & 15
            at += 2
        else:
            method = 0
        at += 2  # data reference index
        base = read_uint(data, at, base_size)
        if method == 0 and base_size:
            data[at:at + base_size] = (base - delta).to_bytes(base_size, "big")
            base_shifted = True
        else:
            base_shifted = False
        at += base_size
        extents = read_uint(data, at, 2)
        at += 2
        for _ in range(extents):
            if version in (1, 2) and index_size:
                at += index_size
            offset = read_uint(data, at, offset_size)
            if method == 0 and not base_shifted and offset_size:
                data[at:at + offset_size] = (offset - delta).to_bytes(offset_size, "big")
            at += offset_size + length_size

src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
top = {kind: (at, header, size) for kind, at, header, size in boxes(data, 0, len(data))}
meta_at, meta_header, meta_size = top["meta"]
mdat_at, _, mdat_size = top["mdat"]
assert meta_at < mdat_at, "meta already after mdat"
meta = bytearray(data[meta_at:meta_at + meta_size])
# iloc sits among meta's children (meta is a full box: 4 bytes of version and flags first).
for kind, at, header, size in boxes(meta, meta_header + 4, len(meta)):
    if kind == "iloc":
        shift_iloc(meta, at + header, at + size, meta_size)
out = data[:meta_at] + data[meta_at + meta_size:mdat_at + mdat_size] + meta + data[mdat_at + mdat_size:]
open(dst, "wb").write(out)
