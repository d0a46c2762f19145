"""Core: onboarding — one-time invite codes (only their hash is kept) and register imports sent in chat that wait
for the admin's Apply.

Revision ID: core_0008
Revises: core_0007
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0008"
down_revision = "core_0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "invites",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("tenant_id", sa.String(41), sa.ForeignKey("tenants.tenant_id"), nullable=False),
        sa.Column("pack", sa.String(16), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("name", sa.String(200)),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("officer_id", sa.String(41)),
        sa.Column("territories", sa.Text, nullable=False),
        sa.Column("created_by", sa.String(64)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True)),
        sa.Column("person_id", sa.String(41)),
    )
    op.create_index("ix_invites_tenant_id", "invites", ["tenant_id"])
    op.create_table(
        "chat_imports",
        sa.Column("import_id", sa.String(32), primary_key=True),
        sa.Column("tenant_id", sa.String(41), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("file_name", sa.String(200)),
        sa.Column("content", sa.LargeBinary),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_imports_user_id", "chat_imports", ["user_id"])


def downgrade() -> None:
    op.drop_table("chat_imports")
    op.drop_table("invites")
