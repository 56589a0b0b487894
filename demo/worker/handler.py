"""A sample worker of your own: draws a gradient PNG of the asked size with the standard library only.

Right-click this file (or use the CodeLens on the runpod.serverless.start line) and choose
**Serve Worker Locally**; then run gradient.input.json on the "handler" endpoint. Change the colours below,
Restart Worker, and run it again.
"""
import base64
import struct
import zlib

import runpod

TOP = (40, 90, 200)      # change me, then Restart Worker
BOTTOM = (250, 180, 60)


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def gradient_png(width, height):
    rows = bytearray()
    for y in range(height):
        t = y / max(1, height - 1)
        pixel = bytes(round(a + (b - a) * t) for a, b in zip(TOP, BOTTOM))
        rows += b"\x00" + pixel * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(bytes(rows))) + _chunk(b"IEND", b"")


def handler(job):
    width = int(job["input"].get("width", 256))
    height = int(job["input"].get("height", 256))
    print(f"drawing a {width}x{height} gradient", flush=True)
    png = gradient_png(width, height)
    return [{"image_url": "data:image/png;base64," + base64.b64encode(png).decode("ascii"), "seed": job["input"].get("seed", 0)}]


if __name__ == "__main__":
    runpod.serverless.start({"handler": handler})
