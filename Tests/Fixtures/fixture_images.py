"""Pictures made on the spot for the interoperability scripts, and what they read back from the server's JPEGs."""

import struct
import zlib


def png(width, height, seed):
    """A gradient PNG made with zlib alone (the server makes a photo's sizes from PNG as from JPEG)."""
    rows = b"".join(
        b"\x00" + bytes(v for x in range(width) for v in ((x * 255 // width + seed * 50) % 256, y * 255 // height, 128))
        for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def solid_png(width, height, rgb):
    """A PNG of one colour, made with zlib alone (a drawn preview's pixels can then be checked for that colour)."""
    row = b"\x00" + bytes(rgb) * width
    return _png(width, height, row * height)


def _png(width, height, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def jpeg_size(data):
    """(width, height) from a JPEG's SOF marker; None if it is not a JPEG."""
    if data[:2] != b"\xff\xd8":
        return None
    index = 2
    while index + 9 < len(data):
        marker, length = data[index + 1], int.from_bytes(data[index + 2:index + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(data[index + 7:index + 9], "big"), int.from_bytes(data[index + 5:index + 7], "big")
        index += 2 + length
    return None
