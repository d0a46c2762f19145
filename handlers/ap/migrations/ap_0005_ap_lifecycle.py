"""ap pack: an invoice's life in the ledger: who moved it to its state, when and why; what the document asked
to be paid to and what a clerk confirmed; the decision summary its memory is written from.

Revision ID: ap_0005_ap_lifecycle
Revises: ap_0004
"""

import sqlalchemy as sa
from alembic import op

revision = "ap_0005_ap_lifecycle"
down_revision = "ap_0004"
branch_labels = None
depends_on = None

def _columns() -> list[sa.Column]:  # type: ignore[type-arg]
    return [
        sa.Column("state_by", sa.String(80), nullable=True),
        sa.Column("state_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("state_reason", sa.Text, nullable=True),
        sa.Column("content_key", sa.String(40), nullable=True),
        sa.Column("invoice_account", sa.String(40), nullable=True),
        sa.Column("confirmed_account", sa.String(40), nullable=True),
        sa.Column("confirmed_by", sa.String(80), nullable=True),
        sa.Column("memo", sa.Text, nullable=True),
    ]


def upgrade() -> None:
    with op.batch_alter_table("ap_ledger_entries") as batch:
        for column in _columns():
            batch.add_column(column)


def downgrade() -> None:
    with op.batch_alter_table("ap_ledger_entries") as batch:
        for column in reversed(_columns()):
            batch.drop_column(column.name)
