"""Draws the scans batch: court paper of a Karimnagar practice as it reaches the office, scanned at a copier or
photographed on a phone. Written for issue 27 by an author who did not use the other batches' drawing code:
serif court type, a date column of its own that is wide on some pages, rows wrapped over two or three lines,
pages a little rotated (either way), grey paper with uneven light, speckle and JPEG noise, low-resolution
phone shots, and a docket running over two scanned pages under the court's title repeated on each.

    python tests/corpus/legal/scans/make_pages.py    (rewrites the .pdf/.jpg/.png pages beside this file)

The drawing is seeded, so the pages are the same on every run.
"""

import io
import random
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = Path(__file__).parent
SERIF = "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"
SERIF_BOLD = "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf"
NARROW = "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf"


@dataclass
class Row:
    """One docket row: its date in the date column, its proceedings in the next column (wrapped lines)."""

    day: str
    lines: list[str]
    number: str = ""


@dataclass
class Sheet:
    """One page: title lines (centred), free lines, then docket rows; how it is drawn and spoiled."""

    title: list[str]
    lines: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    date_column: int = 260
    """Where the proceedings column starts (pixels from the date column's left edge at 1.0 scale)."""
    heading: tuple[str, str] = ("Date", "Proceedings")
    number_column: bool = False
    font: str = SERIF
    size: int = 30
    width: int = 1700
    rotate: float = 0.0
    noise: float = 8.0
    speckle: int = 400
    shade: bool = False
    """Uneven light across the page, as a phone photo has."""
    scale: float = 1.0
    """Shrink after drawing: a low-resolution phone shot."""
    footer: list[str] = field(default_factory=list)
    ink: int = 25
    """The type's grey: a faint copy is drawn near the paper's."""
    paper: int = 255


def _draw(sheet: Sheet, seed: int) -> Image.Image:
    rng = random.Random(seed)
    font = ImageFont.truetype(sheet.font, sheet.size)
    bold = ImageFont.truetype(SERIF_BOLD, sheet.size + 2)
    step = int(sheet.size * 1.45)
    count = len(sheet.title) + len(sheet.lines) + sum(len(r.lines) + 0.6 for r in sheet.rows) + len(sheet.footer) + 6
    image = Image.new("L", (sheet.width, int(120 + step * count)), sheet.paper)
    draw = ImageDraw.Draw(image)
    y = 70
    for line in sheet.title:
        box = draw.textbbox((0, 0), line, font=bold)
        draw.text(((sheet.width - (box[2] - box[0])) // 2, y), line, font=bold, fill=max(0, sheet.ink - 5))
        y += step
    y += step // 2
    for line in sheet.lines:
        draw.text((110, y), line, font=font, fill=sheet.ink)
        y += step
    left = 110
    dates_at = left + (90 if sheet.number_column else 0)
    text_at = dates_at + sheet.date_column
    if sheet.rows:
        if sheet.number_column:
            draw.text((left, y), "Sl.", font=bold, fill=max(0, sheet.ink - 5))
        draw.text((dates_at, y), sheet.heading[0], font=bold, fill=max(0, sheet.ink - 5))
        draw.text((text_at, y), sheet.heading[1], font=bold, fill=max(0, sheet.ink - 5))
        y += step
        draw.line((left, y - 6, sheet.width - 90, y - 6), fill=90, width=2)
        for row in sheet.rows:
            if sheet.number_column:
                draw.text((left, y), row.number, font=font, fill=sheet.ink)
            draw.text((dates_at, y), row.day, font=font, fill=sheet.ink)
            for index, line in enumerate(row.lines):
                draw.text((text_at, y + index * step), line, font=font, fill=sheet.ink)
            y += int(step * (len(row.lines) + 0.6))
    y += step
    for line in sheet.footer:
        draw.text((sheet.width - 110 - int(draw.textlength(line, font=font)), y), line, font=font, fill=sheet.ink)
        y += step
    return _spoil(image, sheet, rng)


def _spoil(image: Image.Image, sheet: Sheet, rng: random.Random) -> Image.Image:
    if sheet.shade:
        # Light falling off across the page: darker towards one corner.
        shade = Image.linear_gradient("L").resize(image.size).rotate(35, expand=False, fillcolor=128)
        image = Image.blend(image, Image.eval(shade, lambda v: 150 + v // 3), 0.25)
    if sheet.rotate:
        image = image.rotate(sheet.rotate, expand=True, fillcolor=235, resample=Image.Resampling.BICUBIC)
    pixels = image.load()
    assert pixels is not None
    for _ in range(sheet.speckle):
        x, y = rng.randrange(image.width), rng.randrange(image.height)
        pixels[x, y] = rng.choice((0, 60, 200))
    if sheet.noise:
        noise = Image.effect_noise(image.size, sheet.noise)
        image = Image.blend(image, noise, 0.12)
    image = image.filter(ImageFilter.GaussianBlur(0.6))
    if sheet.scale != 1.0:
        image = image.resize((int(image.width * sheet.scale), int(image.height * sheet.scale)),
                             Image.Resampling.LANCZOS)
    return image


def scanned_pdf(sheets: list[Sheet], seed: int, dpi: int = 150) -> bytes:
    pages = [_draw(sheet, seed + index).convert("RGB") for index, sheet in enumerate(sheets)]
    out = io.BytesIO()
    pages[0].save(out, format="PDF", save_all=True, append_images=pages[1:], resolution=dpi)
    return out.getvalue()


def photo(sheet: Sheet, seed: int, quality: int = 55) -> bytes:
    out = io.BytesIO()
    _draw(sheet, seed).convert("RGB").save(out, format="JPEG", quality=quality)
    return out.getvalue()


KARIMNAGAR_OS = ["IN THE COURT OF THE II ADDITIONAL JUNIOR CIVIL JUDGE, KARIMNAGAR", "O.S. No. 318 of 2024"]
PAGES: dict[str, bytes] = {}


def build() -> dict[str, bytes]:
    """Every page of the batch by file name."""
    pages: dict[str, bytes] = {}
    # A two-page order sheet, the date column wide, the court's title repeated on the second page.
    pages["s01_os318_order_sheet_2pages.pdf"] = scanned_pdf([
        Sheet(title=[*KARIMNAGAR_OS, "ORDER SHEET"],
              lines=["Alladi Srinivas ... Plaintiff   Vs.   Gopu Anjaiah and another ... Defendants"],
              date_column=420, rotate=0.9, rows=[
                  Row("12-06-2026", ["Plaint numbered. Summons to D1 and D2.", "Call on 10-07-2026."]),
                  Row("10-07-2026", ["D1 served, D2 not served. Fresh summons", "to D2 by RPAD. Adjourned to 14-08-2026."]),
                  Row("14-08-2026", ["D2 served. Counsel for D1 and D2 filed", "vakalat and sought time for written",
                                     "statement. Adjourned to 18-09-2026."]),
              ]),
        Sheet(title=[*KARIMNAGAR_OS, "ORDER SHEET (contd.)"], date_column=420, rotate=-0.7, rows=[
            Row("18-09-2026", ["Written statement filed by D1, adopted by", "D2. For settlement of issues.",
                               "Adjourned to 23-10-2026."]),
            Row("23-10-2026", ["Issues framed. Plaintiff to file chief", "affidavit. Posted to 27-11-2026."]),
            Row("27-11-2026", ["Chief affidavit of PW1 filed. Ex.A1 to A5", "marked. Cross of PW1 on 15-12-2026."]),
        ]),
    ], seed=101)
    # A photographed docket of an execution petition: phone shot, rotated, shaded, low resolution.
    pages["s02_ep14_docket_photo.jpg"] = photo(Sheet(
        title=["PRINCIPAL SENIOR CIVIL JUDGE, KARIMNAGAR", "E.P. No. 14 of 2025 in O.S. No. 40 of 2019"],
        lines=["Decree holder: Kondapaka Ramulu      Judgment debtor: Vanga Narsimha"],
        date_column=330, rotate=-2.4, shade=True, scale=0.62, noise=14, speckle=900, rows=[
            Row("03.09.2026", ["JDr called absent. Set ex parte. Warrant of", "attachment. Adjourned to 08.10.2026."]),
            Row("08.10.2026", ["Warrant returned unexecuted. Fresh warrant.", "Posted to 05.11.2026."]),
            Row("05.11.2026", ["Attachment effected. Sale proclamation", "terms to be settled. Posted to 03.12.2026."]),
            Row("03.12.2026", ["Terms settled. For publication. Call on", "07.01.2027."]),
        ]), seed=202)
    # A district court's daily order, scanned slightly crooked: one hearing.
    pages["s03_sc77_daily_order.pdf"] = scanned_pdf([Sheet(
        title=["IN THE COURT OF THE I ADDITIONAL SESSIONS JUDGE, KARIMNAGAR", "S.C. No. 77 of 2025"],
        lines=["State, rep. by Inspector of Police, Jagtial Town P.S.   Vs.   Mekala Sathaiah",
               "", "Date: 24-11-2026",
               "Accused present on bail. PW3 and PW4 examined in chief and",
               "cross-examined. PW5 absent; summons to PW5 returned served.",
               "Issue bailable warrant to PW5. Posted to 09-12-2026 for PW5."],
        footer=["I ADDITIONAL SESSIONS JUDGE"], rotate=-1.3, noise=10, speckle=600)], seed=303)
    # A cause list of the day, scanned: ours are two of five, listed for 8 December.
    pages["s04_cause_list_08dec.pdf"] = scanned_pdf([Sheet(
        title=["COURT OF THE II ADDITIONAL JUNIOR CIVIL JUDGE, KARIMNAGAR", "CAUSE LIST",
               "FOR TUESDAY, THE 8TH DAY OF DECEMBER 2026"],
        lines=["1. O.S. 201/2023  Chityala Mallesh v. Chityala Ravi  - for evidence",
               "2. O.S. 412/2025  Rudra Traders v. Sanga Venkatesh  - for counter",
               "3. I.A. 77/2026 in O.S. 95/2022  Boini Lakshmi v. Boini Raju  - for orders",
               "4. O.S. 55/2021  Peddi Komurelli v. Grama Panchayat  - for arguments",
               "5. E.A. 9/2026 in E.P. 30/2024  Kasula Ilaiah v. Pulla Rajamma  - for enquiry"],
        rotate=0.6, noise=9)], seed=404)
    # A fee receipt, photographed on the desk: a document of the case, no hearing.
    pages["s05_fee_receipt_photo.jpg"] = photo(Sheet(
        title=["P. SUDHAKAR RAO, B.Sc., LL.B.", "Advocate, Karimnagar"],
        lines=["Receipt No. 112                         Date: 19-11-2026",
               "Received from Sri Rudra Venkateshwarlu the sum of Rs. 3,000/-",
               "towards fee in O.S. No. 412 of 2025 on the file of the",
               "II Additional Junior Civil Judge, Karimnagar.", "", "Signature"],
        rotate=1.8, shade=True, scale=0.7, noise=12, speckle=700), seed=505)
    # A clerk's office note, scanned: a step kept under the case, no hearing.
    pages["s06_office_note_scan.pdf"] = scanned_pdf([Sheet(
        title=["OFFICE NOTE"],
        lines=["30-11-2026",
               "S.C. 77/2025 Sathaiah sessions case - collected certified copy of the",
               "deposition of PW3 from the copying section today. To be kept in file."],
        rotate=-0.5)], seed=606)
    # A docket with a serial number column and a very wide date column, in narrow type, photographed.
    pages["s07_mvop61_docket_photo.png"] = _png(_draw(Sheet(
        title=["MOTOR ACCIDENTS CLAIMS TRIBUNAL-CUM-I ADDL. DISTRICT JUDGE, KARIMNAGAR",
               "M.V.O.P. No. 61 of 2025"],
        lines=["Thota Sunitha and 2 others ... Petitioners   Vs.   New India Assurance Co. ... Respondents"],
        number_column=True, date_column=520, font=NARROW, size=28, rotate=1.6, noise=11, speckle=800, rows=[
            Row("16/09/2026", ["Counter of R2 filed. For enquiry.", "Adjourned to 21/10/2026."], "21"),
            Row("21/10/2026", ["PW1 chief affidavit filed. Cross by R2", "counsel. Adjourned to 18/11/2026."], "22"),
            Row("18/11/2026", ["PW2 (doctor) summoned. Not present.", "Posted to 16/12/2026."], "23"),
        ]), seed=707))
    # A High Court order over two scanned pages: the cause title on the first, the order and date on the second.
    pages["s08_crp902_hc_order_2pages.pdf"] = scanned_pdf([
        Sheet(title=["HIGH COURT FOR THE STATE OF TELANGANA AT HYDERABAD", "CIVIL REVISION PETITION No. 902 OF 2026"],
              lines=["Between:", "Gaddam Sathyanarayana ... Petitioner", "And",
                     "Gaddam Venkateshwarlu ... Respondent", "",
                     "Counsel for the Petitioner: Sri P. Sudhakar Rao",
                     "Counsel for the Respondent: Sri M. Ravinder"], rotate=0.8, noise=9),
        Sheet(title=["CRP No. 902 of 2026"],
              lines=["ORDER (dt. 26-11-2026):", "Heard both sides. Notice before admission.",
                     "Interim stay of further proceedings in I.A. No. 210 of 2025 in",
                     "O.S. No. 88 of 2023 till the next date. Post on 17-12-2026.",
                     "", "Date: 26-11-2026"], footer=["//TRUE COPY//", "SECTION OFFICER"],
              rotate=-1.1, noise=9)], seed=808)
    # A faint photocopy photographed at an angle: grey type on grey paper, small and crooked.
    pages["s09_cc540_faint_docket_photo.jpg"] = photo(Sheet(
        title=["II ADDITIONAL JUDICIAL FIRST CLASS MAGISTRATE, KARIMNAGAR", "C.C. No. 540 of 2025"],
        lines=["Sri Sai Ganesh Finance  Vs.  Bollam Raju  (U/s 138 N.I. Act)"],
        date_column=380, rotate=3.4, shade=True, scale=0.5, noise=18, speckle=1500, ink=95, paper=205, rows=[
            Row("07-10-2026", ["Accused appeared. Substance of accusation", "read over. Adjourned to 04-11-2026."]),
            Row("04-11-2026", ["Complainant evidence. PW1 chief affidavit", "filed. Adjourned to 02-12-2026."]),
            Row("02-12-2026", ["PW1 cross-examined. Posted to 06-01-2027", "for defence evidence."]),
        ]), seed=909, quality=40)
    # A three-page docket scanned at a low resolution, each page crooked its own way.
    title = ["IN THE COURT OF THE SENIOR CIVIL JUDGE, JAGTIAL", "A.S. No. 23 of 2024"]
    pages["s10_as23_docket_3pages_lowres.pdf"] = scanned_pdf([
        Sheet(title=[*title, "ORDER SHEET"], lines=["Bandari Posham ... Appellant   Vs.   Bandari Lingam ... Respondent"],
              date_column=460, rotate=1.5, noise=12, speckle=700, scale=0.6, rows=[
                  Row("09-07-2026", ["Appeal admitted. Notice to respondent.", "Adjourned to 06-08-2026."]),
                  Row("06-08-2026", ["Respondent served. Called absent.", "Adjourned to 03-09-2026."])]),
        Sheet(title=[*title, "(contd.)"], date_column=460, rotate=-2.0, noise=12, speckle=700, scale=0.6, rows=[
            Row("03-09-2026", ["Counsel for respondent filed vakalat.", "Adjourned to 08-10-2026 for arguments."]),
            Row("08-10-2026", ["Arguments of appellant heard in part.", "Adjourned to 05-11-2026."])]),
        Sheet(title=[*title, "(contd.)"], date_column=460, rotate=1.0, noise=12, speckle=700, scale=0.6, rows=[
            Row("05-11-2026", ["Arguments of respondent heard. Posted to", "03-12-2026 for judgment."])]),
    ], seed=1010, dpi=100)
    return pages


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


if __name__ == "__main__":
    for name, data in build().items():
        (HERE / name).write_bytes(data)
        print(f"{name}: {len(data):,} bytes")
