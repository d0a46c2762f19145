"""ap pack: a credit or debit note's amount is kept on its ledger log line, so what is owed on the invoice it is
against (the invoice less its credit notes, plus its debit notes) is a number the ledger, the chat and `ap paid`
can say, not only a sentence.

Revision ID: ap_0008_note_amount
Revises: ap_0007_checker
"""

import sqlalchemy as sa
from alembic import op

revision = "ap_0008_note_amount"
down_revision = "ap_0007_checker"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ap_ledger_actions") as batch:
        batch.add_column(sa.Column("amount", sa.String(24), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ap_ledger_actions") as batch:
        batch.drop_column("amount")
