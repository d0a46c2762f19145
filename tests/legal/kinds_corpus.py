"""A small practice and its court paper, written for the document-kind tests (not from seeds/): a register of four
matters, and pages of each kind as courts and offices issue them."""

from datetime import datetime

from handlers.legal.models import CaseRecord, Upload
from handlers.legal.register import CaseRegister
from memory.asof import IST

CASES = [
    CaseRecord(case_id="os-231-2024", title="Pendyala Ramesh v. Kommineni Sarala", numbers=["O.S. 231/2024"],
               aliases=["Pendyala suit"], court="Junior Civil Judge, Vikarabad"),
    CaseRecord(case_id="as-112-2023", title="Mothe Lakshmaiah v. Mothe Anjamma", numbers=["A.S. 112/2023"],
               aliases=["Mothe appeal"], court="Additional District Judge, Sangareddy"),
    CaseRecord(case_id="wp-1234-2026", title="Gram Panchayat Nandigama v. State of Telangana",
               numbers=["W.P. 1234/2026"], aliases=["Nandigama writ"], court="High Court for the State of Telangana"),
    CaseRecord(case_id="cc-77-2025", title="Sri Durga Agencies v. Vemula Kiran", numbers=["C.C. 77/2025"],
               aliases=["Durga cheque case"], court="Judicial First Class Magistrate, Shadnagar"),
]
REGISTER = CaseRegister(CASES)


def upload(at: str, name: str = "page.txt") -> Upload:
    return Upload(upload_id="ukinds1", source_file=name, author="Adv. Ramya", author_id="ramya",
                  uploaded_at=datetime.fromisoformat(at).replace(tzinfo=IST))


CAUSE_LIST = """IN THE COURT OF THE ADDITIONAL DISTRICT JUDGE, SANGAREDDY
DAILY CAUSE LIST
FOR MONDAY, THE 7TH DAY OF DECEMBER 2026
1. A.S. 112/2023 Mothe Lakshmaiah v. Mothe Anjamma - for arguments
2. A.S. 45/2022 Kurra Balraj v. Kurra Yadamma - for judgment
3. O.S. 231/2024 Pendyala Ramesh v. Kommineni Sarala - for evidence
"""
OFFICE_NOTE = "Durga cheque case: GP served counter copy on us today in office. Reply to be filed before 7/1"
RECEIPT = """FEE RECEIPT
Received from Sri Vemula Kiran a sum of Rs. 5,000/- towards professional fee in C.C. 77/2025.
Date: 12.11.2026"""
VAKALAT = """VAKALATNAMA
IN THE COURT OF THE JUNIOR CIVIL JUDGE, VIKARABAD
O.S. 231/2024
I, Kommineni Sarala, defendant, appoint Sri K. Ravi, Advocate. Dated 03.02.2025"""
HIGH_COURT_ORDER = """IN THE HIGH COURT FOR THE STATE OF TELANGANA AT HYDERABAD
W.P. No. 1234 OF 2026
Between: Gram Panchayat Nandigama ... Petitioner
And: State of Telangana ... Respondent
Heard on 26.11.2026. Learned Government Pleader seeks time to file counter. Post on 07.01.2027.
"""
JUDGMENT = """IN THE COURT OF THE ADDITIONAL DISTRICT JUDGE, SANGAREDDY
A.S. No. 112 of 2023
Heard both sides on 14th September 2026. Judgment pronounced on 21st September 2026. Appeal allowed in part."""
NO_YEAR = "September 22: Mothe appeal - args concluded, reserved for judgment"
TWO_CASES = "Today: Pendyala suit - PW1 cross over, N.D. 15/12; Durga cheque case - accused absent, NBW, N.D. 20/12"
SPELLED_ORDER = """IN THE HIGH COURT FOR THE STATE OF TELANGANA AT HYDERABAD
WRIT PETITION No. 1234 OF 2026
Between: Gram Panchayat Nandigama ... Petitioner
And: State of Telangana, rep. by its Principal Secretary ... Respondent
Heard on 26.11.2026. Learned Government Pleader seeks time to file counter. Post on 07.01.2027.
"""
FORMAL_JUDGMENT = """IN THE COURT OF THE ADDITIONAL DISTRICT JUDGE, SANGAREDDY
A.S. No. 112 OF 2023
JUDGMENT
This appeal coming on for final hearing on 14.09.2026 in the presence of counsel for both sides, and having
stood over for consideration till this day, the court delivered the following:
Appeal allowed in part.
Pronounced in open court, this the 21st day of September, 2026.
"""
