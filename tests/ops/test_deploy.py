"""The deploy recipe holds together: the compose file names the services the README promises, every `smriti`
command in the units and the compose file is one the command line accepts, and every setting the environment
example names is one the bot reads."""

import re
import shlex
from pathlib import Path

import yaml

from bot.cli.smriti import build_parser

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
BOT = DEPLOY.parent / "bot"


def _smriti_commands() -> list[list[str]]:
    texts = [p.read_text() for p in (DEPLOY / "systemd").iterdir()] + [(DEPLOY / "compose.yaml").read_text(),
                                                                       (DEPLOY / "Dockerfile").read_text()]
    joined = "\n".join(t.replace("\\\n", " ") for t in texts)
    found = []
    for match in re.finditer(r"(?:^|[\s/\"'\[])smriti(?:\"?,\s*\"|\s+)(run|backup|queue|db)\b([^'\n\]]*)", joined):
        command = re.sub(r"\$\(\([^)]*\)\)|\$\(date[^)]*\)", "8080", match.group(1) + match.group(2))
        command = re.sub(r"\$\$?\{?\w+\}?", "https://bot.example.org", command)
        found.append(shlex.split(re.sub(r"[\\\",]", " ", command)))
    return found


def test_the_compose_file_runs_the_promised_services() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "hindsight", "worker1", "worker2", "caddy"}
    assert "pgvector" in services["postgres"]["image"]
    assert services["worker2"]["volumes"] != services["worker1"]["volumes"]  # each worker its own spool
    media = "intake-media:/var/lib/smriti/state/intake-media"  # a kept file, read by whichever worker retries it
    assert media in services["worker1"]["volumes"] and media in services["worker2"]["volumes"]


def test_every_smriti_command_in_the_recipe_parses() -> None:
    commands = _smriti_commands()
    assert {c[0] for c in commands} >= {"run", "backup", "queue"}
    parser = build_parser()
    for command in commands:
        parser.parse_args(command)


def test_every_setting_in_the_example_is_read_by_the_bot() -> None:
    source = "\n".join(p.read_text() for p in BOT.rglob("*.py"))
    names = re.findall(r"^#?([A-Z][A-Z0-9_]+)=", (DEPLOY / "smriti.env.example").read_text(), re.M)
    assert len(names) > 15
    unread = [n for n in names if f'"{n}"' not in source]
    assert unread == []


def test_the_image_dumps_with_the_servers_major_version() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    server = re.fullmatch(r"pgvector/pgvector:pg\$\{PG_MAJOR:-(\d+)\}", services["postgres"]["image"])
    client = re.search(r"^ARG PG_MAJOR=(\d+)$", (DEPLOY / "Dockerfile").read_text(), re.M)
    assert server is not None and client is not None and server.group(1) == client.group(1)
    for name in ("hindsight", "worker1"):
        assert services[name]["build"]["args"]["PG_MAJOR"] == f"${{PG_MAJOR:-{server.group(1)}}}"
    assert '"postgresql-client-${PG_MAJOR}"' in (DEPLOY / "Dockerfile").read_text()


def test_the_readme_proxy_example_names_the_ports_the_units_listen_on() -> None:
    unit = (DEPLOY / "systemd" / "smriti-worker@.service").read_text()
    assert "$((8080 + %i))" in unit and "$((8443 + %i))" in unit
    readme = (DEPLOY.parent / "README.md").read_text()
    assert "reverse_proxy /whatsapp/* 127.0.0.1:8081 127.0.0.1:8082" in readme
    assert "127.0.0.1:8080 127.0.0.1:8081" not in readme  # instance @1 does not listen on 8080
