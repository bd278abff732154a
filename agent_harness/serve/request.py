"""What `uigym serve` accepts: the OpenAI chat completions request as one pydantic model, and its images.

`parse_chat_request(body, allow_remote_images=...)` is the one place a request is checked: every field's
type and range (finite floats, bounded ints, `stop` a string or a list of strings, well-formed messages,
content parts, tool calls and tools). A request that fails gets a `RequestError` (HTTP 400, OpenAI's error
shape: message, type "invalid_request_error", param, code) before the model sees anything.

Images: `image_url` must be a `data:` URL (`data:image/png;base64,...`). An http(s) URL is fetched only
when the server runs with `--allow-remote-images`. Nothing else is accepted, so a request cannot make the
server read its own files (a local path or a file:// URL is refused the same way whether or not it exists).
"""

from __future__ import annotations

import base64
import binascii
import io
import json
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import (BaseModel, ConfigDict, Field, PrivateAttr, StrictBool, StrictInt, StrictStr, ValidationError,
                      ValidationInfo, field_validator, model_validator)

from apps.tool_args import depth_within

MAX_JSON_DEPTH = 64  # tools' JSON schemas nest a few levels; deeper is a mistake (or an attack on the stack)
MAX_IMAGE_BYTES = 32 * 1024 * 1024
MAX_IMAGE_PIXELS = 64_000_000  # 8000 x 8000; a screenshot is ~1 million
MAX_TOKENS_LIMIT = 2**31 - 1
SEED_RANGE = (-(2**63), 2**64 - 1)  # what torch.manual_seed takes
REMOTE_IMAGE_TIMEOUT_S = 20.0


class RequestError(ValueError):
    """A request the server refuses: HTTP `status` (400 unless said), with OpenAI's `param` and `code`."""

    def __init__(self, message: str, *, param: str | None = None, code: str | None = None, status: int = 400):
        super().__init__(message)
        self.message, self.param, self.code, self.status = message, param, code, status


FiniteFloat = Annotated[float, Field(strict=True, allow_inf_nan=False)]
NonEmptyStr = Annotated[StrictStr, Field(min_length=1)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class TextPart(_Model):
    type: Literal["text", "input_text", "output_text"]
    text: StrictStr


class ImageURL(_Model):
    url: StrictStr
    detail: Optional[StrictStr] = None


def image_url_error(url: str, allow_remote: bool) -> str | None:
    """Why `url` is not an image URL this server takes, or None. The same words for any path or scheme:
    a refusal never depends on what exists on the server's disk."""
    low = url[:16].lower()
    if low.startswith("data:"):
        return None
    if allow_remote and low.startswith(("http://", "https://")):
        return None
    if allow_remote:
        return "image URLs must be data: URLs (data:image/png;base64,...) or http(s) URLs"
    return ("image URLs must be data: URLs (data:image/png;base64,...); this server fetches no http(s) "
            "images unless started with --allow-remote-images, and never reads local files")


class ImagePart(_Model):
    type: Literal["image_url", "input_image", "image"]
    image_url: Union[ImageURL, StrictStr, None] = None
    image: Optional[StrictStr] = None
    url: Optional[StrictStr] = None

    @model_validator(mode="after")
    def _one_url(self, info: ValidationInfo) -> "ImagePart":
        url = self.url_text
        if url is None:
            raise ValueError("an image part needs image_url.url")
        why = image_url_error(url, bool((info.context or {}).get("allow_remote_images")))
        if why:
            raise ValueError(why)
        return self

    @property
    def url_text(self) -> str | None:
        if isinstance(self.image_url, ImageURL):
            return self.image_url.url
        return self.image_url or self.image or self.url


ContentPart = Annotated[Union[TextPart, ImagePart], Field(discriminator="type")]


class FunctionCall(_Model):
    name: StrictStr
    arguments: Union[StrictStr, dict[str, Any]] = "{}"


class ToolCall(_Model):
    id: Optional[StrictStr] = None
    type: Literal["function"] = "function"
    function: FunctionCall


class Message(_Model):
    role: Literal["system", "user", "assistant", "tool"]
    content: Union[StrictStr, list[ContentPart], None] = None
    name: Optional[StrictStr] = None
    tool_calls: Optional[list[ToolCall]] = None
    tool_call_id: Optional[StrictStr] = None


class FunctionDef(_Model):
    name: NonEmptyStr
    description: Optional[StrictStr] = None
    parameters: Optional[dict[str, Any]] = None
    strict: Optional[StrictBool] = None


class Tool(_Model):
    type: Literal["function"]
    function: FunctionDef


class NamedToolChoice(_Model):
    class _Name(_Model):
        name: NonEmptyStr

    type: Literal["function"]
    function: _Name


class ChatRequest(_Model):
    """The subset of OpenAI's chat completions request that uigym serve answers; unknown keys are ignored
    (as vLLM does), known ones are checked."""

    model: Optional[StrictStr] = None
    messages: Annotated[list[Message], Field(min_length=1)]
    tools: Optional[list[Tool]] = None
    tool_choice: Union[Literal["none", "auto", "required"], NamedToolChoice, None] = None
    max_tokens: Optional[Annotated[StrictInt, Field(ge=1, le=MAX_TOKENS_LIMIT)]] = None
    max_completion_tokens: Optional[Annotated[StrictInt, Field(ge=1, le=MAX_TOKENS_LIMIT)]] = None
    temperature: Optional[Annotated[FiniteFloat, Field(ge=0, le=2)]] = None
    top_p: Optional[Annotated[FiniteFloat, Field(gt=0, le=1)]] = None
    n: Optional[StrictInt] = None
    seed: Optional[Annotated[StrictInt, Field(ge=SEED_RANGE[0], le=SEED_RANGE[1])]] = None
    stop: Union[NonEmptyStr, Annotated[list[NonEmptyStr], Field(max_length=16)], None] = None
    logprobs: Optional[StrictBool] = None
    top_logprobs: Optional[Annotated[StrictInt, Field(ge=0, le=20)]] = None
    stream: Optional[StrictBool] = None
    _allow_remote_images: bool = PrivateAttr(default=False)  # the server's flag, set by parse_chat_request

    @field_validator("n")
    @classmethod
    def _only_one(cls, v: int | None) -> int | None:
        if v is not None and v != 1:
            raise ValueError("only n=1 is supported")
        return v

    @field_validator("stream")
    @classmethod
    def _no_stream(cls, v: bool | None) -> bool | None:
        if v:
            raise ValueError("stream=true is not supported by uigym serve")
        return v

    @property
    def max_new_tokens(self) -> int | None:
        return self.max_completion_tokens or self.max_tokens

    def template_messages(self) -> list[dict]:
        """The messages as the chat template takes them: image parts as {"type": "image"} placeholders,
        content None as "", tool-call arguments as objects where they parse."""
        out = []
        for m in self.messages:
            d: dict[str, Any] = {"role": m.role}
            if isinstance(m.content, list):
                d["content"] = [{"type": "image"} if isinstance(p, ImagePart) else {"type": "text", "text": p.text}
                                for p in m.content]
            else:
                d["content"] = m.content or ""
            for key in ("name", "tool_call_id"):
                if getattr(m, key) is not None:
                    d[key] = getattr(m, key)
            if m.tool_calls:
                calls = []
                for tc in m.tool_calls:
                    args: Any = tc.function.arguments
                    if isinstance(args, str):
                        try:
                            args = json.loads(args)
                        except ValueError:
                            pass
                    calls.append({**({"id": tc.id} if tc.id else {}), "type": "function",
                                  "function": {"name": tc.function.name, "arguments": args}})
                d["tool_calls"] = calls
            out.append(d)
        return out

    def images(self) -> list:
        """The request's images, decoded (data: URLs; http(s) fetched if the server allows it)."""
        return [load_image(u, allow_remote=self._allow_remote_images) for u in self.image_urls()]

    def image_urls(self) -> list[str]:
        return [p.url_text for m in self.messages if isinstance(m.content, list)
                for p in m.content if isinstance(p, ImagePart)]

    def tool_dicts(self) -> list[dict] | None:
        if not self.tools or self.tool_choice == "none":
            return None
        return [t.model_dump(exclude_none=True) for t in self.tools]



def _param(body: Any, loc: tuple, missing: bool = False) -> str | None:
    """pydantic's error location as OpenAI's `param` (messages[0].content[1].image_url): the steps that are
    keys or indexes of the body itself (a union's branch names are not)."""
    out, cur = "", body
    for i, part in enumerate(loc):
        if isinstance(part, int) and isinstance(cur, list) and 0 <= part < len(cur):
            out, cur = out + f"[{part}]", cur[part]
        elif isinstance(part, str) and isinstance(cur, dict) and part in cur:
            out, cur = out + ("." if out else "") + part, cur[part]
        elif missing and i == len(loc) - 1 and isinstance(cur, dict):
            return out + ("." if out else "") + part  # a missing field
    return out or None


def parse_json_body(raw: bytes) -> Any:
    """The request body as JSON; a RequestError (400) if it is not JSON, or nests too deeply."""
    if not raw.strip():
        raise RequestError("the body must be a JSON object (an OpenAI chat completions request)")
    try:
        body = json.loads(raw)
    except RecursionError:
        raise RequestError(f"the JSON body nests too deeply (at most {MAX_JSON_DEPTH} levels)") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise RequestError(f"the body is not valid JSON: {e}") from None
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object (an OpenAI chat completions request)")
    if not depth_within(body, MAX_JSON_DEPTH):
        raise RequestError(f"the JSON body nests too deeply (at most {MAX_JSON_DEPTH} levels)")
    return body


def parse_chat_request(body: Any, *, allow_remote_images: bool = False) -> ChatRequest:
    """The checked request, or a RequestError naming the first field that is wrong and why."""
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object (an OpenAI chat completions request)")
    if not depth_within(body, MAX_JSON_DEPTH):
        raise RequestError(f"the JSON body nests too deeply (at most {MAX_JSON_DEPTH} levels)")
    try:
        req = ChatRequest.model_validate(body, context={"allow_remote_images": allow_remote_images})
        req._allow_remote_images = allow_remote_images
        return req
    except ValidationError as e:
        errs = e.errors(include_input=False, include_url=False)
    # A union reports one error per branch: name the most specific (the deepest) place, with every reason
    # given for that place.
    found = [(_param(body, tuple(x["loc"]), x["type"] == "missing"), x) for x in errs]
    param = max((p or "" for p, _ in found), key=lambda p: p.count(".") + p.count("["), default="") or None
    here = [x for p, x in found if p == param] or errs
    reasons = list(dict.fromkeys(x["msg"].removeprefix("Value error, ") for x in here))
    raise RequestError(f"{param or 'body'}: {'; or '.join(reasons)}", param=param, code=here[0]["type"])


def _decoded_image(raw: bytes):
    from PIL import Image

    try:
        im = Image.open(io.BytesIO(raw))
        w, h = im.size
        if w * h > MAX_IMAGE_PIXELS:
            raise RequestError(f"the image is {w}x{h}: at most {MAX_IMAGE_PIXELS} pixels")
        return im.convert("RGB")
    except RequestError:
        raise
    except Exception as e:  # noqa: BLE001 - PIL raises many kinds for bad bytes (and DecompressionBombError)
        raise RequestError(f"cannot decode image: {type(e).__name__}") from None


def _data_url_bytes(url: str) -> bytes:
    header, sep, payload = url.partition(",")
    if not sep:
        raise RequestError("bad data URL: no ',' before the data")
    if not header.lower().endswith(";base64"):
        raise RequestError("bad data URL: images must be base64 (data:image/png;base64,...)")
    if len(payload) > MAX_IMAGE_BYTES * 4 // 3 + 4:
        raise RequestError(f"the image is larger than {MAX_IMAGE_BYTES} bytes")
    try:
        return base64.b64decode("".join(payload.split()), validate=True)
    except (binascii.Error, ValueError):
        raise RequestError("bad data URL: the data is not base64") from None


def _remote_bytes(url: str) -> bytes:
    import httpx

    try:
        with httpx.stream("GET", url, timeout=REMOTE_IMAGE_TIMEOUT_S, follow_redirects=True) as r:
            if r.status_code != 200:
                raise RequestError(f"cannot fetch image: HTTP {r.status_code}")
            buf = bytearray()
            for chunk in r.iter_bytes():
                buf += chunk
                if len(buf) > MAX_IMAGE_BYTES:
                    raise RequestError(f"the image is larger than {MAX_IMAGE_BYTES} bytes")
            return bytes(buf)
    except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError, ValueError) as e:  # a bad URL is the request's
        raise RequestError(f"cannot fetch image: {type(e).__name__}") from None


def load_image(url: str, *, allow_remote: bool = False):
    """The RGB image a request's image URL names (a data: URL; http(s) only with allow_remote).
    Never opens a local file."""
    why = image_url_error(url, allow_remote)
    if why:
        raise RequestError(why)
    raw = _data_url_bytes(url) if url[:5].lower() == "data:" else _remote_bytes(url)
    return _decoded_image(raw)
