"""Pictures read only in the formats listed, to a pixel budget checked on the header before
anything is decoded, and a broken file is one line (issue 26)."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest

from gridproof.core.errors import CodeError
from tests.test_cli import assert_usage_error

Image = pytest.importorskip("PIL.Image")

from gridproof.output.picture import MAX_IMAGE_PIXELS, read_picture  # noqa: E402


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_declaring(width: int, height: int, idat: bytes) -> bytes:
    """A grey PNG whose header declares `width` x `height` and whose one image-data chunk
    holds `idat` (a few bytes, however large the picture claims to be)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", idat)
        + _chunk(b"IEND", b"")
    )


def jpeg_declaring(width: int, height: int) -> bytes:
    """A tiny JPEG (331 bytes or so) whose frame header is rewritten to claim the size."""
    out = io.BytesIO()
    Image.new("L", (8, 8), 255).save(out, "JPEG")
    data = bytearray(out.getvalue())
    at = data.index(b"\xff\xc0")
    data[at + 5 : at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def test_a_picture_larger_than_the_budget_is_refused_before_decoding(tmp_path: Path) -> None:
    side = int(MAX_IMAGE_PIXELS**0.5) + 1
    png = tmp_path / "big.png"
    png.write_bytes(png_declaring(8000, 7999, zlib.compress(b"\0" * 8001 * 100)))
    jpeg = tmp_path / "big.jpg"
    jpeg.write_bytes(jpeg_declaring(side, side))
    for path in (png, jpeg):
        with pytest.raises(CodeError, match="pixels, more than"):
            read_picture(str(path), 10, 10)


def test_a_broken_picture_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty-data.png"
    path.write_bytes(png_declaring(20, 20, b""))  # an image-data chunk of length 0
    with pytest.raises(CodeError, match="cannot read picture"):
        read_picture(str(path), 5, 5)
    err = assert_usage_error(capsys, "picture", str(path), "--size", "5x5")
    assert "cannot read picture" in err


@pytest.mark.parametrize("kind", ["TIFF", "PPM", "ICO"])
def test_only_the_listed_formats_are_read(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"picture.{kind.lower()}"
    Image.new("L", (16, 16), 0).save(path, kind)
    with pytest.raises(CodeError, match="not a picture in a format read"):
        read_picture(str(path), 4, 4)


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "GIF", "BMP", "WEBP"])
def test_each_listed_format_reads_a_black_square(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"picture.{kind.lower()}"
    picture = Image.new("L", (64, 64), 255)
    picture.paste(0, (0, 0, 32, 32))  # the top-left quarter black
    picture.save(path, kind)
    assert read_picture(str(path), 2, 2) == 0b0001


def test_a_palette_picture_with_transparency_reads_transparent_as_white(tmp_path: Path) -> None:
    path = tmp_path / "clear.gif"
    picture = Image.new("P", (8, 8), 0)
    picture.putpalette([0, 0, 0, 255, 255, 255] + [0] * 762)
    picture.save(path, "GIF", transparency=0)  # index 0 (black) is transparent
    assert read_picture(str(path), 2, 2) == 0
