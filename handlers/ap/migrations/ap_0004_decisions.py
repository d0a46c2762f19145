"""ap pack: the tenant ledger of decisions and payments, the log of clerk actions, and pending override reasons.

Revision ID: ap_0004
Revises: ap_0001
"""

import sqlalchemy as sa
from alembic import op

revision = "ap_0004"
down_revision = "ap_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ap_ledger_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant_id", sa.String(41), nullable=False),
        sa.Column("vendor_id", sa.String(40), nullable=False),
        sa.Column("number_key", sa.String(80), nullable=False),
        sa.Column("invoice_number", sa.String(80), nullable=False),
        sa.Column("invoice_date", sa.Date, nullable=False),
        sa.Column("total", sa.String(24), nullable=False),
        sa.Column("po_number", sa.String(200), nullable=True),
        sa.Column("billed", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("agent_status", sa.String(20), nullable=False),
        sa.Column("clerk_action", sa.String(16), nullable=True),
        sa.Column("decision_id", sa.String(20), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_by", sa.String(80), nullable=False),
        sa.Column("pay_to_account", sa.String(40), nullable=True),
        sa.Column("paid_on", sa.Date, nullable=True),
        sa.Column("paid_to_account", sa.String(40), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_ap_ledger_entries"),
        sa.UniqueConstraint("tenant_id", "vendor_id", "number_key", name="uq_ap_ledger_entries_live"),
    )
    op.create_index("ix_ap_ledger_entries_tenant_id", "ap_ledger_entries", ["tenant_id"])
    op.create_table(
        "ap_ledger_actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant_id", sa.String(41), nullable=False),
        sa.Column("run_id", sa.String(20), nullable=False),
        sa.Column("vendor_id", sa.String(40), nullable=False),
        sa.Column("invoice_number", sa.String(80), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("agent_status", sa.String(20), nullable=False),
        sa.Column("by_user", sa.String(80), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.Text, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_ap_ledger_actions"),
    )
    op.create_index("ix_ap_ledger_actions_tenant_id", "ap_ledger_actions", ["tenant_id"])
    op.create_table(
        "ap_pending_reasons",
        sa.Column("tenant_id", sa.String(41), nullable=False),
        sa.Column("user_id", sa.String(80), nullable=False),
        sa.Column("run_id", sa.String(20), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "user_id", name="pk_ap_pending_reasons"),
    )


def downgrade() -> None:
    op.drop_table("ap_pending_reasons")
    op.drop_index("ix_ap_ledger_actions_tenant_id", "ap_ledger_actions")
    op.drop_table("ap_ledger_actions")
    op.drop_index("ix_ap_ledger_entries_tenant_id", "ap_ledger_entries")
    op.drop_table("ap_ledger_entries")
