"""Core: the audit of forget and export requests (who, when, which subject, how much, outcome).

Revision ID: core_0009
Revises: core_0008
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0009"
down_revision = "core_0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "subject_audit",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("by_user", sa.String(80), nullable=False),
        sa.Column("via", sa.String(16), nullable=False),
        sa.Column("tenant_id", sa.String(41), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subject_id", sa.String(200), nullable=False),
        sa.Column("held", sa.Text, nullable=False),
        sa.Column("kept", sa.Integer, nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
    )
    op.create_index("ix_subject_audit_tenant_id", "subject_audit", ["tenant_id"])


def downgrade() -> None:
    op.drop_table("subject_audit")
