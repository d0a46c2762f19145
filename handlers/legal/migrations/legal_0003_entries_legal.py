"""legal pack: the confirmed entries of each tenant (hearings, listings, steps, documents), their audit, and which
tenants' older banks were read into them.

Revision ID: legal_0003_entries
Revises: legal_0002
"""

import sqlalchemy as sa
from alembic import op

revision = "legal_0003_entries"
down_revision = "legal_0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "legal_entries",
        sa.Column("tenant_id", sa.String(41), nullable=False),
        sa.Column("document_id", sa.String(200), nullable=False),
        sa.Column("case_id", sa.String(41), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("hearing_date", sa.Date, nullable=False),
        sa.Column("next_date", sa.Date, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("source_file", sa.String(300), nullable=False),
        sa.Column("author", sa.String(120), nullable=False),
        sa.Column("author_id", sa.String(80), nullable=False),
        sa.Column("upload_id", sa.String(80), nullable=False),
        sa.Column("upload_kind", sa.String(20), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("date_source", sa.String(20), nullable=False),
        sa.Column("confidence", sa.Float, nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_by", sa.String(80), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "document_id", name="pk_legal_entries"),
    )
    op.create_index("ix_legal_entries_case", "legal_entries", ["tenant_id", "case_id", "hearing_date"])
    op.create_index("ix_legal_entries_next", "legal_entries", ["tenant_id", "next_date"])
    op.create_table(
        "legal_entry_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant_id", sa.String(41), nullable=False),
        sa.Column("document_id", sa.String(200), nullable=False),
        sa.Column("action", sa.String(10), nullable=False),
        sa.Column("by_user", sa.String(80), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("before", sa.Text, nullable=True),
        sa.Column("after", sa.Text, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_legal_entry_audit"),
    )
    op.create_index("ix_legal_entry_audit_entry", "legal_entry_audit", ["tenant_id", "document_id"])
    op.create_table(
        "legal_entry_backfills",
        sa.Column("tenant_id", sa.String(41), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("entries", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", name="pk_legal_entry_backfills"),
    )


def downgrade() -> None:
    op.drop_table("legal_entry_backfills")
    op.drop_index("ix_legal_entry_audit_entry", "legal_entry_audit")
    op.drop_table("legal_entry_audit")
    op.drop_index("ix_legal_entries_next", "legal_entries")
    op.drop_index("ix_legal_entries_case", "legal_entries")
    op.drop_table("legal_entries")
