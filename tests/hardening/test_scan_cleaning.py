"""A faint, small, crooked, speckled photo of a docket is read after cleaning (upscale, despeckle, even light,
deskew), a clean page is read once as it was, and a page has its own time bound. Pages drawn for these tests."""

import random
import re
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bot.services import scanprep, tesseract
from bot.services.ocr import DocumentRejected, ReadLimits, TextReader
from bot.services.reading import Deadline
from handlers.legal.layout import rows_of

FONT = "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"
ROWS = [("11-08-2026", "Notice served on respondent. Adjourned to 15-09-2026."),
        ("15-09-2026", "Counter filed. For enquiry. Posted to 20-10-2026."),
        ("20-10-2026", "Petitioner examined as PW1. Adjourned to 24-11-2026.")]


def _page(tilt: float = 0.0, faint: bool = False, size: int = 30) -> Image.Image:
    font = ImageFont.truetype(FONT, size)
    image = Image.new("L", (1800, 620), 200 if faint else 255)
    draw = ImageDraw.Draw(image)
    ink = 100 if faint else 20
    draw.text((400, 90), "FAMILY COURT, NIZAMABAD   F.C.O.P. No. 17 of 2026", font=font, fill=ink)
    for row, (day, text) in enumerate(ROWS):
        draw.text((170, 200 + 110 * row), day, font=font, fill=ink)
        draw.text((610, 200 + 110 * row), text, font=font, fill=ink)
    if faint:
        rng = random.Random(7)
        pixels = image.load()
        assert pixels is not None
        for _ in range(1200):
            pixels[rng.randrange(image.width), rng.randrange(image.height)] = rng.choice((0, 80))
        shade = Image.linear_gradient("L").resize(image.size)
        image = Image.blend(image, Image.eval(shade, lambda v: 140 + v // 3), 0.3)
    if tilt:
        image = image.rotate(tilt, expand=True, fillcolor=90 if faint else 255, resample=Image.Resampling.BICUBIC)
    if faint:
        image = image.filter(ImageFilter.GaussianBlur(0.7))
        image = image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)
    return image


@pytest.mark.parametrize("tilt", [-3.0, -1.25, 0.0, 2.5, 4.0])
def test_the_tilt_of_a_page_is_found_either_way(tilt: float) -> None:
    assert abs(scanprep.skew(_page(tilt)) - tilt) <= 0.5


def test_a_faint_small_crooked_photo_gives_its_dated_rows_only_after_cleaning(tmp_path: Path) -> None:
    path = tmp_path / "docket.jpg"
    _page(tilt=3.0, faint=True).convert("RGB").save(path, quality=60)
    plain = tesseract._read(Image.open(path).convert("L"), 1, "eng+tel", Deadline(60), Deadline(60), False, True)
    assert tesseract._weak(plain)
    text = rows_of(TextReader().read(path, words=True)).text
    # Each row on a line of its own, led by its date (OCR may still miss a digit on a page this poor).
    rows = [line for line in text.splitlines() if re.match(r"\d{2}-\d{2}-20\d{2}\s", line)]
    assert len(rows) == 3
    assert sum(day in text for day, _ in ROWS) >= 2 and "No. 17" in text


def test_a_clean_page_is_read_once_without_cleaning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def never(image: Image.Image) -> Image.Image:
        raise AssertionError("a clean page was cleaned")

    monkeypatch.setattr(scanprep, "prepared", never)
    path = tmp_path / "clean.png"
    _page().save(path)
    text = TextReader().read(path, words=True).text
    assert all(day in text for day, _ in ROWS)


def test_a_page_that_outlasts_its_own_time_bound_is_refused_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "clean.png"
    _page().save(path)
    with pytest.raises(DocumentRejected, match="reading page 1 took longer than"):
        TextReader(limits=ReadLimits(max_page_seconds=0.01)).read(path, words=True)
