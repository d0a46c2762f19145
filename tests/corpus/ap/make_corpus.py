"""Write the AP corpus: invoices as the billing programs print them, the ledger they meet, and what to expect.

    python -m tests.corpus.ap.make_corpus

Writes invoices/*.txt, ledger/*.json (vendors, POs, goods receipts, payment history: the same files and
format Ledger.load reads), ledger_view.json (earlier invoices already decided, approved or paid) and
expected.json. Vendors, buyer, POs and receipts are the corpus's own, none from seeds/ap.
The expected decision of each case is written from the scenario it was made for, not by running the rules.
"""

import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.corpus.ap.layouts import BUYER, LAYOUTS, Line, Seller, Spec

ROOT = Path(__file__).resolve().parent
D = Decimal

SELLERS = {
    "V101": Seller("Sri Lakshmi Ganapathi Steels", ["Plot 14, IDA Kattedan", "Hyderabad - 500077"], "36AAKCS4821L1ZZ",
                   "Telangana, Code : 36", "040 2436 1187", "State Bank of India", "62184457190", "SBIN0020871",
                   "Kattedan"),
    "V102": Seller("Krishna Electricals & Switchgear", ["29-11-4, Eluru Road", "Vijayawada Andhra Pradesh 520002"],
                   "37ABCFK7319M1ZW", "Andhra Pradesh, Code : 37", "0866 257 4410", "Union Bank of India",
                   "520101044558812", "UBIN0801321", "Governorpet"),
    "V103": Seller("Deccan Polymers Pvt Ltd", ["Gat No. 412, Chakan MIDC", "Pune - 410501"], "27AADCD5521R1Z9",
                   "Maharashtra, Code : 27", "020 6733 9021", "HDFC Bank Ltd", "50200061234517", "HDFC0000187",
                   "Chakan"),
    "V104": Seller("Godavari Agro Chem", ["D.No. 7-12-4, Main Road, Rajahmundry-533101"], "37AAHFG2207K1ZG",
                   "Andhra Pradesh, Code : 37", "0883-2441234", "Axis Bank", "921020034455667", "UTIB0000457",
                   "Rajahmundry"),
    "V105": Seller("Balaji Hardware & Tools", ["12-5-88, Rashtrapati Road", "Secunderabad 500003"], "36BVFPS3391H1Z7",
                   "Telangana, Code : 36", "98480 12345", "Karur Vysya Bank", "1104135000012345", "KVBL0001104",
                   "Secunderabad"),
    "V106": Seller("Annapurna Packaging Industries", ["Survey No. 221, Medchal Road", "Hyderabad Telangana 501401"],
                   "36AAGFA6610C1ZZ", "Telangana, Code : 36", "040 2970 5511", "ICICI Bank", "034705002211",
                   "ICIC0000347", "Medchal"),
    "V107": Seller("Tirumala Seeds & Fertilisers", ["Station Road, Hanamkonda", "Warangal - 506001"], "36AAJFT7788B1ZQ",
                   "Telangana, Code : 36", "0870 257 7720", "Canara Bank", "0567201004433", "CNRB0000567",
                   "Hanamkonda"),
    "V108": Seller("Pune Fluid Controls LLP", ["S.No. 38/2, Bhosari MIDC", "Pune 411026"], "27AAQFP3312G1Z8",
                   "Maharashtra, Code : 27", "020 2712 4432", "Kotak Mahindra Bank", "7412556690", "KKBK0001762",
                   "Bhosari"),
}
STRANGER = Seller("Sree Venkateswara Traders", ["Trunk Road, Nellore 524001"], "37AAUFS9981D1ZB",
                  "Andhra Pradesh, Code : 37", "0861 233 4455", "Indian Bank", "6745120098", "IDIB000N012", "Nellore")
CONTACTS = {"V101": "Ramesh Goud", "V102": "K. Srinivas", "V103": "Amol Jadhav", "V104": "P. Satyanarayana",
            "V105": "Venkatesh B.", "V106": "Lavanya Reddy", "V107": "M. Raju", "V108": "Nikhil Kulkarni"}


@dataclass
class Case:
    id: str
    vendor: str
    layout: str
    fmt: str
    number: str
    day: date
    lines: list[Line]
    po: str | None = None
    po_printed: str | None = None
    po_rates: dict[int, Decimal] = field(default_factory=dict)
    received: dict[int, Decimal] = field(default_factory=dict)
    grn: bool = True
    in_ledger: bool = True
    decision: str = "APPROVE"
    flags: list[str] = field(default_factory=list)
    spec: dict[str, object] = field(default_factory=dict)
    note: str = ""


def L(description: str, hsn: str, quantity: str, unit: str, rate: str, gst: str = "18") -> Line:
    return Line(description, hsn, D(quantity), unit, D(rate), D(gst))


STEEL = [L("MS Round Bar 12mm", "7214", "2.5", "MT", "56400"), L("MS Flat 50x6", "7211", "1.75", "MT", "58900")]
CASES: list[Case] = [
    # Tally (Sri Lakshmi Ganapathi Steels, Tirumala Seeds): CGST/SGST, round-off, HSN summary under the table.
    Case("tally-01", "V101", "tally", "text", "SLG/26-27/0041", date(2026, 4, 22), STEEL, po="KAI-PO-2604-101"),
    Case("tally-02", "V101", "tally", "pdf", "SLG/26-27/0057", date(2026, 5, 6),
         [L("MS Angle 65x65x6", "7216", "3.2", "MT", "57250.50")], po="KAI-PO-2604-118"),
    Case("tally-03", "V101", "tally", "text", "SLG/26-27/0063", date(2026, 5, 14),
         [L("MS Round Bar 16mm", "7214", "4", "MT", "56400")], po="KAI-PO-2605-122", po_rates={0: D("55800")},
         flags=["PRICE_VARIANCE"], note="1.08% over PO: approved with the variance named"),
    Case("tally-04", "V101", "tally", "text", "SLG/25-26/311", date(2026, 3, 28),
         [L("TMT Bar Fe550 10mm", "7214", "6", "MT", "61200")], po="KAI-PO-2603-077", decision="PAYMENT_BLOCKED",
         flags=["DUPLICATE_INVOICE"], note="SLG/25-26/0311 was paid: leading zeros folded"),
    Case("tally-05", "V107", "tally", "text", "TSF/26-27/0019", date(2026, 4, 25),
         [L("DAP Fertiliser 50kg", "3105", "100", "Bags", "1350", "5")], po="KAI-PO-2603-090",
         decision="EXCEPTION", flags=["RECEIPT_ALREADY_BILLED"], note="GRN-T-0450 already billed by TSF/26-27/0012"),
    Case("tally-06", "V107", "tally", "pdf", "TSF/26-27/0024", date(2026, 5, 2),
         [L("Urea Neem Coated 45kg", "3102", "200", "Bags", "266.50", "5"),
          L("Potash MOP 50kg", "3104", "40", "Bags", "1535", "5")], po="KAI-PO-2604-131"),
    Case("tally-07", "V107", "tally", "text", "TSF/26-27/0031", date(2026, 5, 18),
         [L("Hybrid Paddy Seed 10kg", "1006", "60", "Bags", "2240", "0"),
          L("Zinc Sulphate 21% 25kg", "2833", "30", "Bags", "985", "18")], po="KAI-PO-2605-140"),
    Case("tally-08", "V101", "tally", "photo", "SLG/26-27/0070", date(2026, 5, 21),
         [L("MS Plate 8mm", "7208", "3", "MT", "59800")], po="KAI-PO-2605-151"),
    Case("tally-09", "V107", "tally", "text", "TSF/26-27/0036", date(2026, 5, 27),
         [L("SSP Granulated 50kg", "3103", "150", "Bags", "412.25", "5")], po="KAI-PO-2605-158"),
    # Zoho Books (Annapurna Packaging, Krishna Electricals): Invoice#, P.O.#, per-line tax columns, no rounding.
    Case("zoho-01", "V106", "zoho", "text", "INV-000318", date(2026, 4, 18),
         [L("Corrugated Box 5 Ply", "4819", "2000", "Nos", "42.50"), L("BOPP Tape 48mm", "3919", "120", "Nos", "88")],
         po="KAI-PO-2604-104"),
    Case("zoho-02", "V106", "zoho", "pdf", "INV-000322", date(2026, 4, 24),
         [L("HDPE Liner Bag 25kg", "3923", "5000", "Nos", "6.85")], po="KAI-PO-2604-109"),
    Case("zoho-03", "V106", "zoho", "text", "INV-000331", date(2026, 5, 8),
         [L("Laminated Pouch 1kg", "3923", "10000", "Nos", "3.95")], po="KAI-PO-2605-121",
         decision="HUMAN_REVIEW", flags=["POSSIBLE_DUPLICATE"], note="INV-000327 five days earlier, within 1%"),
    Case("zoho-04", "V106", "zoho", "text", "INV-000340", date(2026, 5, 20),
         [L("Corrugated Box 3 Ply", "4819", "3000", "Nos", "27.40")], po="KAI-PO-2699-999", in_ledger=False,
         decision="EXCEPTION", flags=["PO_NOT_FOUND"]),
    Case("zoho-05", "V106", "zoho", "photo", "INV-000344", date(2026, 5, 26),
         [L("Stretch Film 23 micron", "3920", "80", "Rolls", "645")], po="KAI-PO-2605-163",
         spec={"account": "50100455667788", "ifsc": "HDFC0004412"}, decision="HUMAN_REVIEW", flags=["BANK_CHANGE"]),
    Case("zoho-06", "V102", "zoho", "text", "KES-2627-012", date(2026, 4, 16),
         [L("MCB 32A Double Pole", "8536", "40", "Nos", "689"), L("Copper Cable 4 sq mm 90m", "8544", "12", "Coils", "5120")],
         po="KAI-PO-2604-097"),
    Case("zoho-07", "V102", "zoho", "text", "KES-2627-019", date(2026, 4, 29),
         [L("LED Flood Light 100W", "9405", "40", "Nos", "1890")], po="KAI-PO-2604-125", received={0: D("36")},
         decision="EXCEPTION", flags=["QUANTITY_MISMATCH"], note="36 received, 40 invoiced"),
    Case("zoho-08", "V102", "zoho", "pdf", "kes/2526/44", date(2026, 3, 20),
         [L("Distribution Board 8 Way", "8537", "15", "Nos", "3450")], po="KAI-PO-2603-069",
         decision="PAYMENT_BLOCKED", flags=["DUPLICATE_INVOICE"], note="KES-2526-044 approved, not yet paid"),
    Case("zoho-09", "V102", "zoho", "text", "KES-2627-027", date(2026, 5, 15),
         [L("Submersible Pump Starter", "8537", "10", "Nos", "7425"), L("PVC Conduit 25mm", "3917", "300", "Mtr", "38.60")],
         po="KAI-PO-2605-144"),
    Case("zoho-10", "V106", "zoho", "text", "INV-000352", date(2026, 6, 3),
         [L("Printed Carton Seed Pack", "4819", "4000", "Nos", "18.75", "12")], po="KAI-PO-2605-170"),
    # Busy (Deccan Polymers, Pune Fluid Controls): Bill No., Order No., IGST, Rounded Off (+)/(-), Grand Total.
    Case("busy-01", "V103", "busy", "text", "DPL/0061/26-27", date(2026, 4, 9),
         [L("HDPE Woven Sack 50kg", "6305", "2000", "Bags", "14.50")], po="KAI-PO-2604-088",
         po_rates={0: D("14.30")}, flags=["PRICE_VARIANCE"], note="1.4% over PO"),
    Case("busy-02", "V103", "busy", "pdf", "DPL/0066/26-27", date(2026, 4, 23),
         [L("PP Drip Lateral 16mm", "3917", "4000", "Mtr", "7.35"), L("Drip Emitter 4 LPH", "8424", "2500", "Nos", "2.10")],
         po="KAI-PO-2604-112"),
    Case("busy-03", "V103", "busy", "text", "DPL/0074/26-27", date(2026, 5, 19),
         [L("Mulch Film 30 micron", "3920", "40", "Rolls", "3275")], po="KAI-PO-2605-135",
         decision="HUMAN_REVIEW", flags=["POSSIBLE_DUPLICATE"], note="DPL/0071/26-27, same amount, 3 days earlier"),
    Case("busy-04", "V103", "busy", "text", "DPL/0079/26-27", date(2026, 5, 29),
         [L("HDPE Pipe 63mm 6kg", "3917", "120", "Lengths", "1185")], po="KAI-PO-2605-160", grn=False,
         decision="EXCEPTION", flags=["GRN_NOT_FOUND"]),
    Case("busy-05", "V108", "busy", "text", "PFC/26-27/008", date(2026, 4, 14),
         [L("Ball Valve 2 inch PN16", "8481", "30", "Nos", "1460"), L("Pressure Gauge 0-10 bar", "9026", "20", "Nos", "795")],
         po="KAI-PO-2604-095"),
    Case("busy-06", "V108", "busy", "photo", "PFC/26-27/015", date(2026, 5, 12),
         [L("Solenoid Valve 1 inch", "8481", "30", "Nos", "2380")], po="KAI-PO-2604-128",
         decision="EXCEPTION", flags=["RECEIPT_ALREADY_BILLED"], note="50 received, 30 billed by PFC/26-27/011"),
    Case("busy-07", "V108", "busy", "text", "PFC/26-27/021", date(2026, 5, 28),
         [L("Non Return Valve 3 inch", "8481", "20", "Nos", "3120")], po="KAI-PO-2605-147",
         note="50 received, 30 billed earlier: the remaining 20 are billed, approved"),
    Case("busy-08", "V103", "busy", "text", "DPL/0083/26-27", date(2026, 6, 8),
         [L("Shade Net 50% 3x50m", "6005", "25", "Rolls", "4640"), L("Tarpaulin 12x15 ft", "3921", "60", "Nos", "1115")],
         po="KAI-PO-2605-166"),
    # Marg (Godavari Agro Chem): pack, batch, expiry, MRP columns; IGST; NET AMOUNT; R/OFF signed.
    Case("marg-01", "V104", "marg", "text", "GAC/2627/0156", date(2026, 4, 21),
         [L("Chlorpyrifos 20% EC", "3808", "120", "LTR", "410"), L("Mancozeb 75% WP", "3808", "200", "KG", "365.50")],
         po="KAI-PO-2604-106"),
    Case("marg-02", "V104", "marg", "text", "GAC/2627/0171", date(2026, 5, 4),
         [L("Imidacloprid 17.8% SL", "3808", "80", "LTR", "1240")], po="KAI-PO-2604-119", po_rates={0: D("1195")},
         decision="EXCEPTION", flags=["PRICE_MISMATCH"], note="3.8% over PO"),
    Case("marg-03", "V104", "marg", "pdf", "GAC/2627/0180", date(2026, 5, 13),
         [L("Glyphosate 41% SL", "3808", "150", "LTR", "455"), L("Humic Acid 12%", "3101", "100", "LTR", "228.40", "5")],
         po="KAI-PO-2605-130"),
    Case("marg-04", "V104", "marg", "text", "GAC/2627/0188", date(2026, 5, 22),
         [L("Sulphur 80% WDG", "3808", "500", "KG", "142.75")], po="KAI-PO-2605-149"),
    Case("marg-05", "V104", "marg", "text", "GAC/2627/0195", date(2026, 6, 1),
         [L("Neem Oil 1500 PPM", "3808", "240", "LTR", "515")], po="KAI-PO-2605-168"),
    Case("marg-06", "V104", "marg", "text", "GAC/2627/0202", date(2026, 6, 10),
         [L("Profenofos 50% EC", "3808", "90", "LTR", "690")], po="KAI-PO-2606-172"),
    # Hand-made (Word/Excel: Balaji Hardware): "Invoice Number", "Your PO", pipes, "Total" as the taxable value.
    Case("hand-01", "V105", "hand", "text", "BHT-231", date(2026, 4, 18),
         [L("Spanner Set 8-24mm", "8204", "12", "Sets", "1150"), L("Hacksaw Frame", "8203", "20", "Nos", "285")],
         po="KAI/PO/0102", po_printed="KAI/PO/0102"),
    Case("hand-02", "V105", "hand", "photo", "BHT-238", date(2026, 4, 30),
         [L("Pipe Wrench 18 inch", "8204", "10", "Nos", "1640")], po="KAI/PO/0114"),
    Case("hand-03", "V105", "hand", "text", "BHT 219", date(2026, 4, 2),
         [L("Drill Machine 13mm", "8467", "4", "Nos", "3890")], po="KAI/PO/0091", decision="PAYMENT_BLOCKED",
         flags=["DUPLICATE_INVOICE"], note="BHT-0219 decided, not yet approved"),
    Case("hand-04", "V105", "hand", "text", "BHT-244", date(2026, 5, 11),
         [L("Bench Vice 6 inch", "8205", "6", "Nos", "2150")], po="KAI/PO/0120", spec={"total_error": D("1000")},
         decision="EXCEPTION", flags=["TOTAL_MISMATCH"], note="the Grand Total is Rs 1,000 more than the figures"),
    Case("hand-05", "V105", "hand", "pdf", "BHT-251", date(2026, 5, 25),
         [L("Safety Helmet ISI", "6506", "50", "Nos", "245"), L("Safety Shoes Size 8", "6403", "24", "Pairs", "1180")],
         po="KAI/PO/0133", spec={"account": "917010052233441", "ifsc": "UTIB0002210"},
         decision="HUMAN_REVIEW", flags=["BANK_CHANGE"]),
    Case("hand-06", "V105", "hand", "text", "BHT-257", date(2026, 6, 4),
         [L("Garden Hose 1 inch 30m", "3917", "15", "Rolls", "1875")], po="KAI/PO/0139"),
    # Mixed: cess; another buyer's-order print; a stranger's invoice; more Tally and Zoho prints.
    Case("tally-10", "V101", "tally", "text", "SLG/26-27/0078", date(2026, 6, 2),
         [L("Steam Coal Grade B", "2701", "20", "MT", "8450", "5")], po="KAI-PO-2605-171", spec={"cess_pct": D("4")},
         note="compensation cess"),
    Case("zoho-11", "V102", "zoho", "text", "KES-2627-033", date(2026, 6, 5),
         [L("Street Light 45W", "9405", "25", "Nos", "2310"), L("GI Pole Bracket", "7308", "25", "Nos", "415")],
         po="KAI-PO-2606-174"),
    Case("hand-07", "STRANGER", "hand", "text", "SVT/112", date(2026, 5, 9),
         [L("Jute Twine 2 ply", "5607", "200", "KG", "96")], po="KAI/PO/0999", in_ledger=False,
         decision="HUMAN_REVIEW", flags=["UNKNOWN_VENDOR"]),
    Case("busy-09", "V108", "busy", "pdf", "PFC/26-27/026", date(2026, 6, 9),
         [L("Gate Valve 4 inch CI", "8481", "8", "Nos", "6240")], po="KAI-PO-2606-176"),
    Case("marg-07", "V104", "marg", "photo", "GAC/2627/0210", date(2026, 6, 15),
         [L("Emamectin Benzoate 5% SG", "3808", "60", "KG", "1380")], po="KAI-PO-2606-180"),
]

TYPED: list[Case] = [
    # Typed by hand, in layouts the generator does not make: an Excel bill with a Disc% column and a
    # "Bill No./Date" label, a services invoice with SAC and no quantity, a Tally print with batch lines
    # under each item, a "Sale Voucher", a retail print with "Inv No / Dt" and no title, a bill of supply.
    Case("typed-01", "V105", "typed", "text", "BHT-262", date(2026, 5, 14),
         [L("Knapsack Sprayer 16 L", "8424", "100", "Nos", "237.50"), L("Pruning Secateurs 8 inch", "8201", "40", "Nos", "180")],
         po="KAI/PO/0141", note="5% trade discount on the sprayers: the PO has the net rate"),
    Case("typed-02", "V106", "typed", "pdf", "APS/SRV/26-27/009", date(2026, 6, 11),
         [L("Annual Maintenance of Form-Fill-Seal Machine", "998719", "1", "Job", "45000"),
          L("Calibration of Weighing Scales", "998346", "2", "Nos", "3500")], po="KAI-PO-2606-185"),
    Case("typed-03", "V103", "typed", "pdf", "DPL/0088/26-27", date(2026, 6, 12),
         [L("PP Drip Lateral 16mm Class 2", "3917", "4000", "Mtr", "7.35"), L("Inline Dripper 4 LPH", "8424", "1500", "Nos", "2.10")],
         po="KAI-PO-2606-187"),
    Case("typed-04", "V108", "typed", "text", "PFC/SV/0034", date(2026, 6, 15),
         [L("Butterfly Valve 6 inch PN10", "8481", "12", "Nos", "4875.50")], po="KAI-PO-2606-189"),
    Case("typed-05", "V104", "typed", "text", "GAC/2627/0231", date(2026, 6, 16),
         [L("Trichoderma Viride 1% WP", "3808", "48", "KG", "612", "12")], po="KAI-PO-2606-191",
         spec={"rounding": False}),
    Case("typed-06", "V107", "typed", "photo", "TSF/BOS/0007", date(2026, 6, 17),
         [L("Groundnut Seed K-6 (30 kg)", "1202", "25", "Bags", "1460", "0"),
          L("Bengal Gram Seed JG-11 (20 kg)", "0713", "10", "Bags", "890", "0")], po="KAI-PO-2606-193"),
    Case("typed-07", "V107", "typed", "pdf", "TSF/26-27/0044", date(2026, 6, 8),
         [L("Hybrid Maize Seed 5kg", "1005", "120", "Pkt", "1680", "5"),
          L("Drip Irrigation Kit 1 Acre", "8424", "6", "Set", "18450", "18")], po="KAI-PO-2606-195",
         note="a Tally e-invoice: IRN and Ack No. above the title, two GST rates"),
    Case("typed-08", "V106", "typed", "photo", "INV-000361", date(2026, 6, 12),
         [L("Pallet Stretch Wrap 500mm", "3920", "40", "Rolls", "750"),
          L("Edge Protector Board 1m", "4823", "500", "Nos", "40")], po="KAI-PO-2606-197",
         spec={"discount": D("2500")}, note="Zoho with a 5% discount on the whole invoice"),
    Case("typed-09", "V105", "typed", "text", "BHT-271", date(2026, 6, 13),
         [L("Aluminium Ladder 8 ft", "7616", "6", "Nos", "4250"), L("Tool Box 3 Tray", "7326", "10", "Nos", "1385")],
         po="KAI/PO/0147", note="'Invoice No. & Date' and 'PO No. & Date' on one line each"),
    Case("typed-10", "V104", "typed", "text", "gac 2627 120", date(2026, 3, 2),
         [L("Copper Oxychloride 50% WP", "3808", "300", "KG", "520")], po="KAI-PO-2602-041",
         decision="PAYMENT_BLOCKED", flags=["DUPLICATE_INVOICE"], spec={"rounding": False},
         note="GAC/2627/0120 was paid: the same number typed with spaces and in lower case"),
]
CASES += TYPED

VIEW: list[dict[str, Any]] = [
    {"vendor_id": "V101", "invoice_number": "SLG/25-26/0311", "invoice_date": "2026-03-28", "total": None,
     "po_number": "KAI-PO-2603-077", "status": "paid", "paid_on": "2026-04-06", "decision_id": "r-slg0311",
     "case": "tally-04", "billed": "all"},
    {"vendor_id": "V102", "invoice_number": "KES-2526-044", "invoice_date": "2026-03-20", "total": None,
     "po_number": "KAI-PO-2603-069", "status": "approved", "decided_at": "2026-03-24T11:20:00+05:30",
     "decision_id": "r-kes044", "case": "zoho-08", "billed": "all"},
    {"vendor_id": "V105", "invoice_number": "BHT-0219", "invoice_date": "2026-04-02", "total": None,
     "po_number": "KAI/PO/0091", "status": "decided", "decided_at": "2026-04-03T16:05:00+05:30",
     "decision_id": "r-bht219", "case": "hand-03", "billed": "all"},
    {"vendor_id": "V107", "invoice_number": "TSF/26-27/0012", "invoice_date": "2026-03-30", "total": "141750.00",
     "po_number": "KAI-PO-2603-090", "status": "paid", "paid_on": "2026-04-08", "decision_id": "r-tsf012",
     "billed": [{"grn_number": "GRN-T-0450", "po_line": 1, "quantity": "100"}]},
    {"vendor_id": "V106", "invoice_number": "INV-000327", "invoice_date": "2026-05-03", "total": "46230.00",
     "po_number": "KAI-PO-2604-126", "status": "approved", "decided_at": "2026-05-04T10:00:00+05:30",
     "decision_id": "r-inv327", "billed": []},
    {"vendor_id": "V103", "invoice_number": "DPL/0071/26-27", "invoice_date": "2026-05-16", "total": "case:busy-03",
     "po_number": "KAI-PO-2605-128", "status": "decided", "decided_at": "2026-05-16T15:45:00+05:30",
     "decision_id": "r-dpl071", "billed": []},
    {"vendor_id": "V104", "invoice_number": "GAC/2627/0120", "invoice_date": "2026-03-02", "total": None,
     "po_number": "KAI-PO-2602-041", "status": "paid", "paid_on": "2026-03-16", "decision_id": "r-gac120",
     "case": "typed-10", "billed": "all"},
    {"vendor_id": "V108", "invoice_number": "PFC/26-27/011", "invoice_date": "2026-04-20", "total": "84240.00",
     "po_number": "KAI-PO-2604-128", "status": "approved", "decided_at": "2026-04-29T12:30:00+05:30",
     "decision_id": "r-pfc011", "billed": [{"grn_number": "GRN-P-0512", "po_line": 1, "quantity": "30"}]},
    {"vendor_id": "V108", "invoice_number": "PFC/26-27/013", "invoice_date": "2026-05-05", "total": "110448.00",
     "po_number": "KAI-PO-2605-147", "status": "paid", "paid_on": "2026-05-14", "decision_id": "r-pfc013",
     "billed": [{"grn_number": "GRN-P-0530", "po_line": 1, "quantity": "30"}]},
]
RECEIVED_MORE = {"busy-06": D("50"), "busy-07": D("50"), "tally-05": D("100")}
"""Receipts larger than this invoice: part of them was billed by an invoice in the view."""


def spec_of(case: Case) -> Spec:
    seller = STRANGER if case.vendor == "STRANGER" else SELLERS[case.vendor]
    return Spec(seller=seller, number=case.number, day=case.day, po=case.po_printed or case.po, lines=case.lines,
                **case.spec)  # type: ignore[arg-type]


def _money(value: Decimal) -> str:
    return f"{value:.2f}"


def ledger_files(specs: dict[str, Spec]) -> dict[str, dict[str, Any]]:
    vendors, pos, grns, history = [], [], [], []
    for vendor_id, seller in SELLERS.items():
        paid = [date(2025, 6, 10) + timedelta(days=45 * i + int(vendor_id[-1])) for i in range(4)]
        vendors.append({
            "vendor_id": vendor_id, "name": seller.name, "aliases": [],
            "gstin": seller.gstin, "bank_account": {"account_number": seller.account, "ifsc": seller.ifsc,
                                                    "bank_name": seller.bank_name},
            "verified_contact": {"name": CONTACTS[vendor_id], "role": "Accounts", "phone": seller.phone,
                                 "email": f"accounts@{vendor_id.lower()}.example"},
            "onboarded_on": "2025-05-02", "first_paid": paid[0].isoformat(), "payment_count": len(paid)})
        for i, day in enumerate(paid):
            history.append({"invoice_number": f"OLD/{vendor_id}/{i + 1:03d}", "vendor_id": vendor_id,
                            "invoice_date": (day - timedelta(days=8)).isoformat(),
                            "total": _money(D(31000 + 7919 * i + 1013 * int(vendor_id[-1]))), "outcome": "paid",
                            "paid_on": day.isoformat(), "paid_to_account": seller.account})
    po_numbers = {c.po for c in CASES if c.po and c.in_ledger} | {v["po_number"] for v in VIEW}
    by_po = {c.po: c for c in CASES if c.po and c.in_ledger}
    for po in sorted(str(p) for p in po_numbers):
        case = by_po.get(po)
        view = next((v for v in VIEW if v["po_number"] == po), None)
        vendor_id = case.vendor if case else str(view["vendor_id"]) if view else ""
        lines = case.lines if case else [Line("Material as per quotation", "0000", D("1"), "Nos", D("1000"), D("18"))]
        day = (case.day if case else date.fromisoformat(str(view["invoice_date"]) if view else "2026-04-01"))
        pos.append({"po_number": po, "vendor_id": vendor_id, "po_date": (day - timedelta(days=12)).isoformat(),
                    "lines": [{"line_no": n, "sku": f"{vendor_id}-{n}-{ln.hsn}", "description": ln.description,
                               "quantity": str(RECEIVED_MORE.get(case.id, ln.quantity) if case else ln.quantity),
                               "unit": ln.unit, "unit_price": _money(case.po_rates.get(n - 1, ln.rate) if case else ln.rate)}
                              for n, ln in enumerate(lines, 1)]})
        if case is None or not case.grn:
            continue
        grn_number = {"tally-05": "GRN-T-0450", "busy-06": "GRN-P-0512", "busy-07": "GRN-P-0530"}.get(
            case.id, f"GRN-{po[-3:]}-{case.vendor[-2:]}")
        grns.append({"grn_number": grn_number, "po_number": po, "received_on": (day - timedelta(days=2)).isoformat(),
                     "lines": [{"po_line": n, "quantity_received": str(case.received.get(n - 1, RECEIVED_MORE.get(
                         case.id, ln.quantity)))} for n, ln in enumerate(lines, 1)]})
    return {"vendors.json": {"buyer": {"name": BUYER[0], "gstin": BUYER[1]}, "vendors": vendors},
            "purchase_orders.json": {"purchase_orders": pos}, "goods_receipts.json": {"goods_receipts": grns},
            "history.json": {"invoices": history}}


def view_file(specs: dict[str, Spec], grns: list[dict[str, Any]]) -> dict[str, object]:
    entries = []
    for raw in VIEW:
        entry = {k: v for k, v in raw.items() if k not in ("case",)}
        total = raw["total"]
        if total is None:
            total = _money(specs[str(raw["case"])].total)
        elif str(total).startswith("case:"):
            total = _money(specs[str(total)[5:]].total)
        entry["total"] = total
        if raw["billed"] == "all":
            grn = next(g for g in grns if g["po_number"] == raw["po_number"])
            entry["billed"] = [{"grn_number": grn["grn_number"], "po_line": line["po_line"],
                                "quantity": line["quantity_received"]} for line in grn["lines"]]
        entries.append(entry)
    return {"entries": entries}


def expected(case: Case, spec: Spec) -> dict[str, object]:
    return {
        "id": case.id, "file": f"invoices/{case.id}.txt", "format": case.fmt, "layout": case.layout,
        "vendor_id": None if case.vendor == "STRANGER" else case.vendor,
        "fields": {"number": case.number, "date": case.day.isoformat(), "po": spec.po,
                   "lines": [[str(ln.quantity.normalize()), _money(ln.rate), _money(ln.amount)] for ln in case.lines],
                   "tax": _money(spec.tax), "total": _money(spec.total),
                   "bank": {"account_number": spec.bank_account, "ifsc": spec.bank_ifsc}},
        "decision": case.decision, "flags": case.flags, "note": case.note,
    }


def main() -> None:
    specs = {c.id: spec_of(c) for c in CASES}
    (ROOT / "invoices").mkdir(exist_ok=True)
    (ROOT / "ledger").mkdir(exist_ok=True)
    for case in CASES:
        if case.layout == "typed":
            continue  # typed by hand, checked in as it is
        lines = LAYOUTS[case.layout](specs[case.id])
        (ROOT / "invoices" / f"{case.id}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    files = ledger_files(specs)
    # batch 2 typed by hand, batch 3 written by make_batch3.py: both appended to the one corpus ledger
    later = [json.loads((ROOT / name).read_text(encoding="utf-8")) for name in ("ledger2.json", "ledger3.json")]
    for name, body in files.items():
        key = next(iter(body.keys() - {"buyer"}))
        body[key] = body[key] + [row for batch in later for row in batch[f"ledger/{name}"]]
        (ROOT / "ledger" / name).write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    grns = files["goods_receipts.json"]["goods_receipts"]
    view = view_file(specs, grns)
    view["entries"] = [*view["entries"], *(row for batch in later for row in batch["ledger_view.json"])]
    (ROOT / "ledger_view.json").write_text(json.dumps(view, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    cases = [expected(c, specs[c.id]) for c in CASES]
    (ROOT / "expected.json").write_text(json.dumps({"cases": cases}, indent=1, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    print(f"wrote {len(cases)} invoices")


if __name__ == "__main__":
    main()
