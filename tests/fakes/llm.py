"""A fake OpenAI-compatible LLM that a real local Hindsight server calls, so LLM mode runs in tests.

Hindsight (provider `openai`, base URL pointing here) sends its own prompts with the response schema
appended to the system message. The fake reads the schema's title to know which prompt it is answering
and gives a deterministic, schema-valid answer derived from the content it was sent:

- fact extraction (`FactExtractionResponse`): one fact per sentence, dated by the chunk's Event Date;
- consolidation (`_ConsolidationBatchResponse`): one observation per new fact, citing that fact, so every
  observation has a source fact and a date Hindsight derives from it;
- anything else that asks for JSON gets an empty object of its schema; a plain question (reflect, a mental
  model's content) gets a short answer built from the memories listed in the prompt.

`delay_s` mimics a real model's latency. Run it on its own with `python -m tests.fakes.llm --port 8897`.
"""

import argparse
import json
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.http import FakeServer, Recorded, Response

_SCHEMA_MARK = "You must respond with valid JSON matching this schema:"
_EVENT_DATE = re.compile(r"Event Date:[^\n(]*\((\d{4}-\d{2}-\d{2})[^)]*\)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_CAPITALISED = re.compile(r"\b[A-Z][a-zA-Z]{2,}\b")


@dataclass
class FakeLLM:
    """The fake model server; `calls` counts answers by kind, `unknown` keeps prompts it did not recognise."""

    delay_s: float = 0.0
    port: int = 0
    dump_dir: str | None = None
    calls: dict[str, int] = field(default_factory=dict)
    unknown: list[Recorded] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self.server = FakeServer(port=self.port, keep_requests=False)
        self.server.route("POST", "/v1/chat/completions", self._chat)
        self.server.route("GET", "/v1/models", lambda _: Response.of_json({"data": [{"id": "fake-model"}]}))

    @property
    def base_url(self) -> str:
        return f"{self.server.url}/v1"

    def close(self) -> None:
        self.server.close()

    def count(self, kind: str) -> int:
        with self._lock:
            return self.calls.get(kind, 0)

    def _chat(self, request: Recorded) -> Response:
        body = request.json()
        messages: list[dict[str, Any]] = body.get("messages") or []
        schema = _schema_of(body, messages)
        title = str(schema.get("title", "")) if schema else ""
        if body.get("tools"):
            kind, call = "reflect", agent_step(body)
            message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
            content = json.dumps(call)
        else:
            kind, content = self._answer(title, schema, messages, body)
            message = {"role": "assistant", "content": content}
        if self.delay_s:
            time.sleep(self.delay_s)  # a real model's latency; counted once answered
        with self._lock:
            self.calls[kind] = self.calls.get(kind, 0) + 1
            seen = sum(self.calls.values())
        if self.dump_dir:
            with open(f"{self.dump_dir}/{seen:04d}-{kind.replace(':', '-')}.json", "w") as out:
                json.dump({"request": body, "answer": content}, out, indent=1)
        return Response.of_json(_completion(body.get("model", "fake-model"), message))

    def _answer(
        self, title: str, schema: dict[str, Any] | None, messages: list[dict[str, Any]], body: dict[str, Any]
    ) -> tuple[str, str]:
        user = "\n".join(_text(m) for m in messages if m.get("role") == "user")
        if title == "FactExtractionResponse" or title.startswith("FactExtractionResponse"):
            return "extract", json.dumps({"facts": extract_facts(user)})
        if "Consolidation" in title:
            return "consolidate", json.dumps(consolidate(user, schema or {}))
        if schema is not None:
            with self._lock:
                self.unknown.append(Recorded("POST", title, {}, json.dumps(body).encode()))
            return f"json:{title}", json.dumps(empty_of(schema))
        return "text", answer_from_prompt(user)


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _schema_of(body: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    response_format = body.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema")
        return schema if isinstance(schema, dict) else None
    for message in messages:
        text = _text(message)
        at = text.find(_SCHEMA_MARK)
        if at >= 0:
            try:
                decoded, _ = json.JSONDecoder().raw_decode(text[at + len(_SCHEMA_MARK):].lstrip())
            except ValueError:
                return None
            return decoded if isinstance(decoded, dict) else None
    return None


def _completion(model: str, message: dict[str, Any]) -> dict[str, Any]:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "finish_reason": finish, "message": message}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def extract_facts(user: str) -> list[dict[str, Any]]:
    """One fact per sentence of the chunk's content, each an event on the chunk's Event Date."""
    date_match = _EVENT_DATE.search(user)
    day = date_match.group(1) if date_match else None
    content = user.split("Content:", 1)[1] if "Content:" in user else user
    facts = []
    for sentence in _SENTENCE.split(content.strip()):
        sentence = " ".join(sentence.split())
        if len(sentence) < 3:
            continue
        facts.append({
            "what": sentence, "when": day or "N/A", "where": "N/A", "who": "N/A", "why": "N/A",
            "fact_kind": "event" if day else "conversation",
            "occurred_start": day, "occurred_end": day, "fact_type": "world",
            "entities": sorted(set(_CAPITALISED.findall(sentence)))[:5],
            "causal_relations": None,
        })
    return facts


def consolidate(user: str, schema: dict[str, Any]) -> dict[str, Any]:
    """Merge a new fact into an existing observation naming the same person or place, else create one.

    Merging is what real models do with a farmer's visits over a season, and what makes an observation rest on
    facts from several dates (Hindsight then gives it the EARLIEST start among them).
    """
    answer = empty_of(schema)
    existing = existing_observations_in(user)
    updates: dict[str, dict[str, Any]] = {}
    creates = []
    for fact_id, text in new_facts_in(user):
        names = _names(text)
        match = next((o for o in existing if names & _names(str(o.get("text", "")))), None)
        if match is None:
            creates.append({"text": f"Observed: {text}", "source_fact_ids": [fact_id],
                            "reason": "no existing observation covers it"})
            continue
        update = updates.setdefault(str(match["id"]), {
            "observation_id": str(match["id"]), "current_text": str(match.get("text", "")),
            "text": str(match.get("text", "")), "source_fact_ids": [], "reason": "same person or place"})
        update["text"] = f"{update['text']} Later: {text}"
        update["source_fact_ids"].append(fact_id)
    answer["creates"] = creates
    answer["updates"] = list(updates.values())
    return answer


_STOP = {"Observed", "Later", "Field", "Visit", "Crop", "The", "This", "After", "Result", "Nothing"}


def _names(text: str) -> set[str]:
    return {w for w in _CAPITALISED.findall(text) if w not in _STOP and len(w) >= 4}


def existing_observations_in(user: str) -> list[dict[str, Any]]:
    """Return the JSON array the consolidation prompt lists existing observations in."""
    tail = user.split("### Existing observations", 1)
    if len(tail) < 2:
        return []
    try:
        decoded, _ = json.JSONDecoder().raw_decode(tail[1].strip())
    except ValueError:
        return []
    return [o for o in decoded if isinstance(o, dict) and o.get("id")] if isinstance(decoded, list) else []


_NEW_FACT = re.compile(r"^\[([0-9a-f-]{36})\] (.+?)(?: \| When:.*?)?(?: \((?:occurred|mentioned)_[^)]*\))?$", re.M)


def new_facts_in(user: str) -> list[tuple[str, str]]:
    """Return (fact id, text) for each `[uuid] text | When: ... (temporal fields)` line under New facts."""
    block = user.split("### New facts", 1)[-1].split("### Existing observations", 1)[0]
    return [(m.group(1), m.group(2).strip()) for m in _NEW_FACT.finditer(block)]


_SEARCH_TOOLS = ("search_observations", "recall")
_UUID = re.compile(r'"id"\s*:\s*"([0-9a-f]{8}-[0-9a-f-]{27})"')


def agent_step(body: dict[str, Any]) -> dict[str, Any]:
    """One turn of Hindsight's reflect agent: search observations, then raw facts, then answer from both.

    The answer cites every memory the searches returned, the way a model that uses all it was given would,
    so a test can see exactly what reflect was able to reach.
    """
    tools = {t["function"]["name"]: t["function"] for t in body.get("tools", []) if t.get("type") == "function"}
    messages = body.get("messages") or []
    called = [c["function"]["name"] for m in messages for c in (m.get("tool_calls") or [])]
    forced = body.get("tool_choice")
    if isinstance(forced, dict):
        name = forced.get("function", {}).get("name", "")
    else:
        pending = [t for t in _SEARCH_TOOLS if t in tools and t not in called]
        name = pending[0] if pending else ("done" if "done" in tools else
                                           "answer_ready" if "answer_ready" in tools else next(iter(tools)))
    question = next((_text(m) for m in messages if m.get("role") == "user"), "")
    results = [_text(m) for m in messages if m.get("role") == "tool"]
    if name in _SEARCH_TOOLS or name not in ("done", "answer_ready"):
        arguments: dict[str, Any] = {"reason": "look it up", "query": question[:300]}
    else:
        seen = "\n".join(results)
        texts = [json.loads(f'"{q}"') for q in re.findall(r'"text"\s*:\s*"((?:[^"\\]|\\.)*)"', seen)]
        ids = list(dict.fromkeys(_UUID.findall(seen)))
        arguments = {
            "answer": " ".join(dict.fromkeys(texts)) or "Nothing is recorded about this.",
            "answer_found": bool(texts),
            "memory_ids": ids, "observation_ids": ids, "mental_model_ids": [],
        }
    spec = tools.get(name, {}).get("parameters", {})
    if "document" in spec.get("properties", {}) and "answer" in arguments:
        # A mental model's refresh asks for a structured document instead of free text.
        arguments["document"] = {"sections": [{"heading": "Works", "level": 2, "blocks": [arguments.pop("answer")]}]}
    for key in spec.get("required", []):
        if key not in arguments:
            kind = spec.get("properties", {}).get(key, {}).get("type")
            arguments[key] = True if kind == "boolean" else [] if kind == "array" else "Complied."
    allowed = set(spec.get("properties", {}))
    arguments = {k: v for k, v in arguments.items() if not allowed or k in allowed}
    return {"id": f"call_{len(messages)}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}


def answer_from_prompt(user: str) -> str:
    """A plain answer: the first memory lines the prompt quotes, or a plain 'nothing' if none."""
    quoted = re.findall(r'"text"\s*:\s*"((?:[^"\\]|\\.)*)"', user)
    if not quoted:
        return "No memories to answer from."
    return " ".join(json.loads(f'"{q}"') for q in quoted[:5])


def empty_of(schema: dict[str, Any]) -> dict[str, Any]:
    """Return the smallest object valid for a JSON schema: required fields with empty values."""
    defs = schema.get("$defs", {})

    def value(node: dict[str, Any]) -> Any:
        if "$ref" in node:
            return value(defs.get(node["$ref"].rsplit("/", 1)[-1], {}))
        if "default" in node:
            return node["default"]
        if "anyOf" in node:
            return value(node["anyOf"][-1])
        if "enum" in node:
            return node["enum"][0]
        if "const" in node:
            return node["const"]
        kind = node.get("type")
        if kind == "object":
            props = node.get("properties", {})
            return {k: value(props[k]) for k in node.get("required", []) if k in props}
        return {"array": [], "string": "", "integer": 0, "number": 0, "boolean": False, "null": None}.get(
            str(kind), None
        )

    result = value(schema)
    return result if isinstance(result, dict) else {}


def main() -> None:
    parser = argparse.ArgumentParser(description="Run the fake OpenAI-compatible LLM on loopback.")
    parser.add_argument("--port", type=int, default=8897)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds each model answer takes")
    parser.add_argument("--dump", default=None, help="a directory to write every request and answer to")
    args = parser.parse_args()
    fake = FakeLLM(delay_s=args.delay, port=args.port, dump_dir=args.dump)
    print(f"fake LLM at {fake.base_url}", flush=True)
    try:
        threading.Event().wait()
    finally:
        fake.close()


if __name__ == "__main__":
    main()
