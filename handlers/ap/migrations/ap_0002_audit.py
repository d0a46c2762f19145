"""ap pack: the audit trail — every step of every run — and the runs waiting for a clerk's choice.

Revision ID: ap_0002_audit
Revises: ap_0001
"""

import sqlalchemy as sa
from alembic import op

revision = "ap_0002_audit"
down_revision = "ap_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ap_audit",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("run_id", sa.String(64), nullable=False),
        sa.Column("bank_id", sa.String(128), nullable=False),
        sa.Column("vendor_id", sa.String(64)),
        sa.Column("invoice_number", sa.String(64)),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("ix_ap_audit_invoice", "ap_audit", ["bank_id", "invoice_number"])
    op.create_index("ix_ap_audit_action", "ap_audit", ["bank_id", "action"])
    op.create_table(
        "ap_runs",
        sa.Column("run_id", sa.String(64), primary_key=True),
        sa.Column("bank_id", sa.String(128), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("report", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("clerk_action", sa.String(32)),
        sa.Column("clerk_user", sa.String(64)),
        sa.Column("clerk_at", sa.DateTime(timezone=True)),
    )


def downgrade() -> None:
    op.drop_table("ap_runs")
    op.drop_table("ap_audit")
