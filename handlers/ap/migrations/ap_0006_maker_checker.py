"""ap pack: an approval over a bank-account block takes two people; the entry keeps who asked (the maker) and
why until a second person approves.

Revision ID: ap_0006_maker_checker
Revises: ap_0005_ap_lifecycle
"""

import sqlalchemy as sa
from alembic import op

revision = "ap_0006_maker_checker"
down_revision = "ap_0005_ap_lifecycle"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ap_ledger_entries") as batch:
        batch.add_column(sa.Column("maker_by", sa.String(80), nullable=True))
        batch.add_column(sa.Column("maker_reason", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ap_ledger_entries") as batch:
        batch.drop_column("maker_reason")
        batch.drop_column("maker_by")
