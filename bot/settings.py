"""Settings: one frozen object read from the environment once, at start-up."""

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, SecretStr

from memory.local import LocalServerConfig, default_data_dir


class Settings(BaseModel):
    """Everything configurable, with defaults that run on the embedded local memory and no keys."""

    model_config = ConfigDict(frozen=True)

    data_dir: Path
    default_tenant: str = "demo"
    bank_prefix: str = "smriti"

    hindsight_url: str | None = None
    """A remote Hindsight (Cloud or self-hosted). When set, nothing local is started."""
    hindsight_api_key: SecretStr | None = None
    local_api_port: int = 8888
    local_pg_port: int = 55433

    memory_llm: bool | None = None
    """Whether the memory server extracts with a language model (LLM mode). None: yes exactly when the embedded
    local server runs with a Groq key. Set it for a remote server (Hindsight Cloud runs with one)."""

    groq_api_key: SecretStr | None = None
    groq_base_url: str | None = None
    groq_chat_model: str = "openai/gpt-oss-120b"
    groq_fallback_model: str = "qwen/qwen3-32b"
    groq_vision_model: str = "meta-llama/llama-4-scout-17b-16e-instruct"
    groq_whisper_model: str = "whisper-large-v3"
    groq_timeout_s: float = 30.0

    speech: Literal["groq", "local"] | None = None
    """The speech engine; None picks groq when a key is set, local (faster-whisper) otherwise."""
    whisper_model: str = "small"
    """The local model for every language: a size name, a Hugging Face repo id, a folder, or `packaged`."""
    whisper_models: dict[str, str] = {}
    """Per-language overrides (SMRITI_WHISPER_MODEL_TE=...): the officer's language picks the model."""
    whisper_cpu_threads: int = 0

    telegram_bot_token: SecretStr | None = None
    telegram_base_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_secret_previous: SecretStr | None = None
    """During a rotation, the secret Telegram may still send until the webhook is registered with the new one."""
    telegram_bot_username: str | None = None
    """For invite links (https://t.me/<username>?start=<code>); a running bot learns it from Telegram."""

    twilio_account_sid: str | None = None
    twilio_auth_token: SecretStr | None = None
    twilio_auth_token_secondary: SecretStr | None = None
    """During a rotation, the other token Twilio may still sign webhooks with."""
    twilio_whatsapp_from: str | None = None
    twilio_base_url: str | None = None
    twilio_followup_template_sid: str | None = None
    public_base_url: str | None = None

    database_url_override: str | None = None
    """`SMRITI_DATABASE_URL`: a SQLAlchemy URL (PostgreSQL in production); SQLite under data_dir by default."""
    max_media_bytes: int = 20 * 1024 * 1024
    max_voice_seconds: float = 300.0
    max_text_chars: int = 4000
    web_secret: SecretStr | None = None
    """`SMRITI_WEB_SECRET`: signs the office web page's cookies and forms (default: a random key kept in data_dir)."""
    web_base_url: str | None = None
    """`SMRITI_WEB_BASE_URL`: the office web page as people reach it, e.g. https://bot.example.org/office."""
    max_document_chars: int = 100_000
    """Characters of text one document (PDF, scan, text file) may yield; more is refused, not read."""
    max_document_pages: int = 200
    max_scanned_pages: int = 30
    max_read_seconds: float = 120.0
    """Time budget for reading and splitting one document, off the event loop."""
    max_document_entries: int = 60
    """Entries (hearings, lines of a record) one document may become; each is a card to confirm."""
    max_replies_per_message: int = 80
    """Replies (cards included) one message may get; a pack that makes more gets a refusal instead."""
    packs_package: str = "handlers"
    """`SMRITI_PACKS`: the package whose INSTALLED catalogue lists the packs this bot serves."""

    @property
    def uses_local_memory(self) -> bool:
        return self.hindsight_url is None

    @property
    def memory_url(self) -> str:
        return self.hindsight_url or self.local_server.url

    @property
    def local_server(self) -> LocalServerConfig:
        key = self.groq_api_key.get_secret_value() if self.groq_api_key else None
        return LocalServerConfig(
            data_dir=self.data_dir,
            api_port=self.local_api_port,
            pg_port=self.local_pg_port,
            groq_api_key=key,
            # The SDK takes the host; Hindsight's OpenAI-compatible client takes the API root.
            llm_base_url=f"{self.groq_base_url.rstrip('/')}/openai/v1" if self.groq_base_url else None,
        )

    @property
    def database_url(self) -> str:
        """The one database everything outside Hindsight lives in."""
        from bot.store.db import default_database_url  # SQLAlchemy loads only when a database is used

        return self.database_url_override or default_database_url(self.data_dir)

    @property
    def memory_uses_llm(self) -> bool:
        """LLM mode: retain is slow (seconds to minutes), so saves go asynchronously and reflect is available."""
        if self.memory_llm is not None:
            return self.memory_llm
        return self.uses_local_memory and self.has_groq

    @property
    def state_dir(self) -> Path:
        return self.data_dir / "state"

    @property
    def has_groq(self) -> bool:
        return self.groq_api_key is not None

    @property
    def speech_engine(self) -> Literal["groq", "local"]:
        return self.speech or ("groq" if self.has_groq else "local")

    def whisper_model_for(self, language: str | None) -> str:
        return self.whisper_models.get(language or "", self.whisper_model)


def _secret(env: dict[str, str], name: str) -> SecretStr | None:
    value = env.get(name, "").strip()
    return SecretStr(value) if value else None


def _text(env: dict[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def load_settings(env: dict[str, str] | None = None) -> Settings:
    """Build Settings from the environment (or a given mapping, for tests)."""
    source = dict(os.environ if env is None else env)
    data_dir = Path(source["SMRITI_HOME"]).expanduser() if source.get("SMRITI_HOME") else default_data_dir()
    # Values are validated by Settings itself (pydantic), so these maps hold whatever the environment gave.
    optional: dict[str, Any] = {
        "hindsight_url": _text(source, "SMRITI_HINDSIGHT_URL"),
        "hindsight_api_key": _secret(source, "SMRITI_HINDSIGHT_API_KEY"),
        "groq_api_key": _secret(source, "GROQ_API_KEY"),
        "groq_base_url": _text(source, "SMRITI_GROQ_BASE_URL"),
        "telegram_bot_token": _secret(source, "TELEGRAM_BOT_TOKEN"),
        "telegram_base_url": _text(source, "SMRITI_TELEGRAM_BASE_URL"),
        "telegram_webhook_secret": _secret(source, "SMRITI_TELEGRAM_WEBHOOK_SECRET"),
        "telegram_webhook_secret_previous": _secret(source, "SMRITI_TELEGRAM_WEBHOOK_SECRET_PREVIOUS"),
        "telegram_bot_username": _text(source, "SMRITI_TELEGRAM_BOT_USERNAME"),
        "twilio_account_sid": _text(source, "TWILIO_ACCOUNT_SID"),
        "twilio_auth_token": _secret(source, "TWILIO_AUTH_TOKEN"),
        "twilio_auth_token_secondary": _secret(source, "TWILIO_AUTH_TOKEN_SECONDARY"),
        "twilio_whatsapp_from": _text(source, "TWILIO_WHATSAPP_FROM"),
        "twilio_base_url": _text(source, "SMRITI_TWILIO_BASE_URL"),
        "twilio_followup_template_sid": _text(source, "SMRITI_TWILIO_FOLLOWUP_TEMPLATE_SID"),
        "public_base_url": _text(source, "SMRITI_PUBLIC_BASE_URL"),
        "database_url_override": _text(source, "SMRITI_DATABASE_URL"),
        "packs_package": _text(source, "SMRITI_PACKS"),
        "web_secret": _secret(source, "SMRITI_WEB_SECRET"),
        "web_base_url": _text(source, "SMRITI_WEB_BASE_URL"),
    }
    numbers = {
        "local_api_port": _text(source, "SMRITI_LOCAL_PORT"),
        "local_pg_port": _text(source, "SMRITI_LOCAL_PG_PORT"),
        "whisper_cpu_threads": _text(source, "SMRITI_WHISPER_THREADS"),
    }
    flag = _text(source, "SMRITI_MEMORY_LLM")
    if flag is not None:
        optional["memory_llm"] = flag.lower() in ("1", "true", "yes", "on")
    speech: dict[str, Any] = {
        "speech": (_text(source, "SMRITI_SPEECH") or "").lower() or None,
        "whisper_model": _text(source, "SMRITI_WHISPER_MODEL"),
    }
    prefix = "SMRITI_WHISPER_MODEL_"
    per_language = {k[len(prefix):].lower(): v.strip() for k, v in source.items() if k.startswith(prefix) and v.strip()}
    ports_and_threads: dict[str, Any] = {k: int(v) for k, v in numbers.items() if v is not None}
    return Settings(
        data_dir=data_dir,
        default_tenant=source.get("SMRITI_TENANT", "demo"),
        bank_prefix=source.get("SMRITI_BANK_PREFIX", "smriti"),
        **{k: v for k, v in optional.items() if v is not None},
        **ports_and_threads,
        **{k: v for k, v in speech.items() if v is not None},
        whisper_models=per_language,
    )
