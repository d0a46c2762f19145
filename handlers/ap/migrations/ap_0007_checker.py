"""ap pack: the second person who approved over a bank-account block (the checker) is kept on the entry, so the
ledger, the chat and memory still say who approved it, and to which account, after it is paid.

Revision ID: ap_0007_checker
Revises: ap_0006_maker_checker
"""

import sqlalchemy as sa
from alembic import op

revision = "ap_0007_checker"
down_revision = "ap_0006_maker_checker"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ap_ledger_entries") as batch:
        batch.add_column(sa.Column("checker_by", sa.String(80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ap_ledger_entries") as batch:
        batch.drop_column("checker_by")
