"""Core: the office web page — sign-in links, sessions, used form tokens, its audit; invites can be revoked.

Revision ID: core_0011_web
Revises: core_0010
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0011_web"
down_revision = "core_0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("tenant_id", sa.String(41), nullable=False, index=True),
        sa.Column("person_id", sa.String(41), nullable=False),
        sa.Column("created_by", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True)),
    )
    op.create_table(
        "web_sessions",
        sa.Column("session_hash", sa.String(64), primary_key=True),
        sa.Column("tenant_id", sa.String(41), nullable=False, index=True),
        sa.Column("person_id", sa.String(41), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
    )
    op.create_table(
        "web_form_nonces",
        sa.Column("nonce", sa.String(64), primary_key=True),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "web_audit",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(41), nullable=False, index=True),
        sa.Column("by_user", sa.String(64), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    with op.batch_alter_table("invites") as batch:
        batch.add_column(sa.Column("revoked_at", sa.DateTime(timezone=True)))


def downgrade() -> None:
    with op.batch_alter_table("invites") as batch:
        batch.drop_column("revoked_at")
    for table in ("web_audit", "web_form_nonces", "web_sessions", "web_links"):
        op.drop_table(table)
