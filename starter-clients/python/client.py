#!/usr/bin/env python3
"""Card Services API starter client: Python 3.9+, standard library only. See README.md.

Use it as a command (``python3 client.py gift 6006491000000001``) or as a module::

    client = CardApiClient(Config.from_env())
    try:
        result = client.gift("6006491000000001")
    except DeclinedError as declined:
        ...
"""
from __future__ import annotations

import argparse
import email.utils
import http.client
import json
import os
import platform
import socket
import sys
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping, Optional

VERSION = "1.1.0"
USER_AGENT = "card-api-client-python/%s (python %s)" % (VERSION, platform.python_version())
TOKEN_PATH = "/reporting/v1/auth/token"
GIFT_PATH = "/transaction/v1/gift/balance-inquiry"
BALANCE_PATH = "/transaction/v1/balance-inquiry"
LOOKUP_PATH = "/transaction/v1/transactions/request-id/"
DEFAULT_LOCATION = "store-001"
# Renew this long before expiry (half the lifetime for a short one), so a token never expires in flight.
RENEW_MARGIN_S = 60.0
# A Retry-After longer than this is not waited out: the command gives up (exit 1) without calling again.
PATIENCE_S = 60.0
# Pauses before the 2nd and 3rd try of a token request or a read: never a tight loop against a failing server.
BACKOFF_S = (0.6, 1.2)
# A Retry-After given as an HTTP date has whole seconds: wait past the second it names.
DATE_MARGIN_S = 1.0
# A Gift Balance Inquiry whose outcome is unknown is sent again (same Request Id) at most this often.
MAX_GIFT_SENDS = 3


class CardApiError(Exception):
    """Every error of this client carries the Request Id and transaction id it knows of (None when none)."""

    def __init__(self, message: str, request_id: Optional[str] = None, transaction_id: Optional[str] = None):
        super().__init__(message)
        self.request_id = request_id
        self.transaction_id = transaction_id


class UnreachableError(CardApiError):
    """Nobody answered: connection refused or reset, the answer cut short, or no whole answer in time."""

    def __init__(self, message: str, timed_out: bool = False, stage: Optional[str] = None):
        super().__init__(message)
        self.timed_out = timed_out
        self.stage = stage


class OutcomeUnknownError(CardApiError):
    """A Gift Balance Inquiry was sent, and neither its answer nor a lookup said whether it was recorded."""


class RefusedError(CardApiError):
    """The API answered, but not with a result: any 3xx, 4xx, or a 5xx a read still got after its retries."""

    def __init__(self, message: str, result: Result, stage: Optional[str] = None):
        super().__init__(message, result.request_id, result.transaction_id)
        self.result = result
        self.status = result.status
        errors = result.body.get("errors") if isinstance(result.body, dict) else None
        first = errors[0] if isinstance(errors, list) and errors and isinstance(errors[0], dict) else {}
        self.code: Optional[str] = first.get("code")
        self.stage = stage


class RateLimitedError(RefusedError):
    """A 429 asked for a wait longer than PATIENCE_S: nothing more is sent."""


class DeclinedError(CardApiError):
    """A Gift Balance Inquiry answered response_status "declined": a result, never to be sent again."""

    def __init__(self, result: Result):
        super().__init__("declined", result.request_id, result.transaction_id)
        self.result = result


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    """The configuration, from environment variables only (the secret stays out of the code)."""

    auth_url: str
    base_url: str
    client_id: str
    client_secret: str
    timeout_s: float = 10.0
    cache_file: str = ".card-api-token.json"

    @classmethod
    def from_env(cls, env: Optional[Mapping[str, str]] = None) -> Config:
        env = os.environ if env is None else env

        def need(name: str) -> str:
            value = env.get(name, "")
            if not value:
                raise ConfigError(name + " is not set")
            return value

        timeout_text = env.get("CARD_API_TIMEOUT_MS") or "10000"
        if not timeout_text.isdigit() or int(timeout_text) <= 0:
            raise ConfigError("CARD_API_TIMEOUT_MS must be a positive integer")
        return cls(
            auth_url=need("CARD_API_AUTH_URL").rstrip("/"),
            base_url=need("CARD_API_BASE_URL").rstrip("/"),
            client_id=need("CARD_API_CLIENT_ID"),
            client_secret=need("CARD_API_CLIENT_SECRET"),
            timeout_s=int(timeout_text) / 1000,
            cache_file=env.get("CARD_API_TOKEN_CACHE") or ".card-api-token.json",
        )


@dataclass
class Answer:
    """One HTTP answer: the body parsed as JSON, or its text (is_json False), or None when empty."""

    status: int
    body: Any
    is_json: bool
    retry_after: Optional[str] = None
    location: Optional[str] = None

    @property
    def outcome_unknown(self) -> bool:
        """A server error, or a success that could not be read: what happened cannot be told from it."""
        return self.status >= 500 or (self.status < 300 and not self.is_json)


@dataclass
class Result:
    """What a call came to. For a Gift Balance Inquiry whose answer was lost, ``lookup`` is what found it."""

    status: Optional[int]
    request_id: Optional[str]
    transaction_id: Optional[str]
    body: Any
    location: Optional[str] = None
    timed_out: bool = False
    lookup: Optional[dict] = None
    resent: Optional[dict] = None

    def to_json(self, stage: Optional[str] = None) -> dict:
        printed: dict = {
            "status": self.status,
            "request_id": self.request_id,
            "transaction_id": self.transaction_id,
            "body": self.body,
        }
        extra = {"location": self.location, "stage": stage, "timed_out": self.timed_out or None}
        extra.update(lookup=self.lookup, resent=self.resent)
        printed.update((key, value) for key, value in extra.items() if value is not None)
        return printed


@dataclass
class Token:
    auth_url: str
    client_id: str
    access_token: str
    token_type: str
    scope: str
    expires_at: str
    lifetime_s: float = field(default=7200.0)

    def fresh(self) -> bool:
        """API specification §5.8: renewed a margin before it expires, never used after."""
        return parse_iso(self.expires_at) - time.time() > min(RENEW_MARGIN_S, self.lifetime_s / 2)


def parse_body(raw: bytes) -> tuple[Any, bool]:
    text = raw.decode("utf-8", errors="replace")
    if text == "":
        return None, True
    try:
        return json.loads(text), True
    except ValueError:
        return text, False


def retry_after_s(header: Optional[str], now: Optional[float] = None) -> float:
    """How long a 429 asks to wait (RFC 9110 §10.2.3): seconds or an HTTP date; 1 s when absent or unreadable."""
    text = (header or "").strip()
    if text.isdigit():
        return int(text) + 0.1
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return 1.0
    if when is None:
        return 1.0
    return max(when.timestamp() - (time.time() if now is None else now), 0.0) + DATE_MARGIN_S


def iso(timestamp: float) -> str:
    moment = datetime.fromtimestamp(timestamp, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def parse_iso(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def transaction_id_of(body: Any) -> Optional[str]:
    data = body.get("data") if isinstance(body, dict) else None
    found = data.get("transaction_id") if isinstance(data, dict) else None
    return found if isinstance(found, str) else None


def is_declined(body: Any) -> bool:
    data = body.get("data") if isinstance(body, dict) else None
    return isinstance(data, dict) and data.get("response_status") == "declined"


def card_body(card: str, location: str) -> dict:
    return {
        "data": {
            "entry_mode": "keyed",
            "card_number": card,
            "pin_mode": "none",
            "originator": {"location_id": location},
        }
    }


class _DeadlineConnection(http.client.HTTPConnection):
    """Keeps its socket after a `Connection: close` answer, so that each read can get the time left."""

    def connect(self) -> None:
        super().connect()
        self.kept_sock = self.sock


class _DeadlineHTTPSConnection(http.client.HTTPSConnection):
    def connect(self) -> None:
        super().connect()
        self.kept_sock = self.sock


class CardApiClient:
    """A Card Services API client that keeps every duty the specification puts on a client."""

    def __init__(self, config: Config):
        self.config = config
        self.token: Optional[Token] = None

    def send(self, url: str, method: str, headers: dict, body: Any = None) -> Answer:
        """One HTTP exchange, headers and whole body within one deadline; a redirect is an answer, not followed."""
        parts = urllib.parse.urlsplit(url)
        origin = "%s://%s" % (parts.scheme, parts.netloc)
        deadline = time.monotonic() + self.config.timeout_s
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **headers}
        kind = _DeadlineHTTPSConnection if parts.scheme == "https" else _DeadlineConnection
        connection = kind(parts.hostname or "", parts.port, timeout=self.config.timeout_s)
        target = parts.path + ("?" + parts.query if parts.query else "")
        try:
            connection.request(method, target, body=data, headers=headers)
            sock = connection.kept_sock
            sock.settimeout(max(deadline - time.monotonic(), 0.001))
            response = connection.getresponse()
            chunks = []
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise socket.timeout()
                sock.settimeout(left)
                chunk = response.read1(65536)
                if not chunk:
                    break
                chunks.append(chunk)
            if response.length:
                raise http.client.IncompleteRead(b"".join(chunks), response.length)
            parsed, is_json = parse_body(b"".join(chunks))
            retry_after, location = response.getheader("Retry-After"), response.getheader("Location")
            return Answer(response.status, parsed, is_json, retry_after, location)
        except socket.timeout as error:
            message = "%s: no answer within %d ms" % (origin, self.config.timeout_s * 1000)
            raise UnreachableError(message, timed_out=True) from error
        except (OSError, http.client.HTTPException) as error:
            raise UnreachableError("%s: %s" % (origin, str(error) or error.__class__.__name__)) from error
        finally:
            connection.close()

    def read_cache(self) -> Optional[Token]:
        try:
            with open(self.config.cache_file, encoding="utf-8") as file:
                cached = Token(**json.load(file))
            ours = cached.auth_url == self.config.auth_url and cached.client_id == self.config.client_id
            return cached if ours and isinstance(cached.access_token, str) and cached.fresh() else None
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def write_cache(self, token: Token) -> None:
        path = self.config.cache_file
        temporary = "%s.%d.tmp" % (path, os.getpid())
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump({key: value for key, value in token.__dict__.items() if key != "lifetime_s"}, file)
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)

    def request_token(self) -> Token:
        """API specification §4.1, the only request that carries the secret: at most 3 tries when the endpoint fails (5xx, 429,
        no answer), spaced by BACKOFF_S; a 4xx or 3xx is the answer (RefusedError)."""
        config = self.config
        body = {
            "client_id": config.client_id,
            "client_secret": config.client_secret,
            "grant_type": "client_credentials",
        }
        headers = {"Content-Type": "application/json; charset=utf-8"}
        failure = ""
        for attempt in range(len(BACKOFF_S) + 1):
            try:
                answer = self.send(config.auth_url + TOKEN_PATH, "POST", headers, body)
            except UnreachableError as error:
                failure = str(error)
                if attempt < len(BACKOFF_S):
                    time.sleep(BACKOFF_S[attempt])
                continue
            data = answer.body.get("data") if isinstance(answer.body, dict) else None
            attributes = data.get("attributes") if isinstance(data, dict) else None
            access = attributes.get("access_token") if isinstance(attributes, dict) else None
            if answer.status == 200 and isinstance(access, str):
                return self._keep(attributes)
            result = Result(answer.status, None, None, answer.body, answer.location)
            if answer.status < 500 and answer.status not in (200, 429):
                raise RefusedError("the token request was answered %d" % answer.status, result, stage="token")
            failure = "the token endpoint answered %d" % answer.status
            if attempt == len(BACKOFF_S):
                break
            wait = retry_after_s(answer.retry_after) if answer.status == 429 else 0.0
            if wait > PATIENCE_S:
                raise RateLimitedError(too_long(answer, wait), result, stage="token")
            time.sleep(max(wait, BACKOFF_S[attempt]))
        raise UnreachableError("no token after %d requests: %s" % (len(BACKOFF_S) + 1, failure), stage="token")

    def _keep(self, attributes: dict) -> Token:
        lifetime = attributes.get("expires_in")
        lifetime_s = float(lifetime) if isinstance(lifetime, (int, float)) and lifetime > 0 else 0.0
        token_type, scope = attributes.get("token_type"), attributes.get("scope")
        token = Token(
            auth_url=self.config.auth_url,
            client_id=self.config.client_id,
            access_token=attributes["access_token"],
            token_type=token_type if isinstance(token_type, str) else "Bearer",
            scope=scope if isinstance(scope, str) else "",
            expires_at=iso(time.time() + lifetime_s),
            lifetime_s=lifetime_s,
        )
        self.write_cache(token)
        self.token = token
        return token

    def get_token(self) -> Token:
        """API specification §5.7: the token in memory, else the cached one, else a new one; renewed before it expires (API specification §5.8)."""
        if self.token is None or not self.token.fresh():
            self.token = self.read_cache() or self.request_token()
        return self.token

    def call(
        self, method: str, path: str, body: Any = None, request_id: Optional[str] = None, retry: bool = False
    ) -> Answer:
        """One API call with the duties around it. A 401: one new token, the same call once more (API specification §5.8). A 429:
        wait Retry-After, then once more (a second 429 is the answer, after its own wait), or give up when it is
        beyond PATIENCE_S (RFC 9110). A read (``retry``) is tried up to 3 times when its outcome is unknown; a write
        never is here (see gift). 403 is never retried."""
        token = self.get_token()
        renewed = waited = False
        tries = 0
        while True:
            headers = {"Authorization": "Bearer " + token.access_token}
            if body is not None:
                headers["Content-Type"] = "application/json"
            if request_id is not None:
                headers["X-Request-Id"] = request_id
            try:
                answer = self.send(self.config.base_url + path, method, headers, body)
            except UnreachableError:
                if not retry or tries >= len(BACKOFF_S):
                    raise
                time.sleep(BACKOFF_S[tries])
                tries += 1
                continue
            if answer.status == 401 and not renewed:
                renewed = True
                token = self.request_token()
            elif answer.status == 429:
                wait = retry_after_s(answer.retry_after)
                if wait > PATIENCE_S:
                    result = Result(429, request_id, None, answer.body)
                    raise RateLimitedError(too_long(answer, wait), result)
                # A second 429 is the answer, given once its window has passed: no next command calls inside it.
                time.sleep(wait)
                if waited:
                    return answer
                waited = True
            elif retry and answer.outcome_unknown and tries < len(BACKOFF_S):
                time.sleep(BACKOFF_S[tries])
                tries += 1
            else:
                return answer

    def balance(self, card: str, location: str = DEFAULT_LOCATION) -> Result:
        """API specification §4.4 Balance Inquiry: records nothing, so it is retried when its answer is lost."""
        return settle(self.call("POST", BALANCE_PATH, card_body(card, location), retry=True), None)

    def lookup(self, request_id: str) -> Result:
        """Lookup Transaction by Request Id (API specification §4.3.3); a 404 (never recorded) is a RefusedError with status 404."""
        return settle(self._lookup(request_id), request_id)

    def _lookup(self, request_id: str) -> Answer:
        return self.call("GET", LOOKUP_PATH + urllib.parse.quote(request_id, safe=""), retry=True)

    def gift(self, card: str, location: str = DEFAULT_LOCATION, request_id: Optional[str] = None) -> Result:
        """API specification §4.3 Gift Balance Inquiry under a fresh Request Id (API specification §8). When its outcome is unknown (5xx, no answer in
        time, a reset, a cut or unreadable body), nothing else happens for that card before the outcome is learned
        (API specification §4.3.3): a lookup by the Request Id; when that finds nothing, the same request with the same Request Id."""
        request_id = request_id or str(uuid.uuid4())
        body = card_body(card, location)
        first: Optional[Answer] = None
        recovery: dict = {}
        why = ""
        for sends in range(1, MAX_GIFT_SENDS + 1):
            duplicate = False
            try:
                answer = self.call("POST", GIFT_PATH, body, request_id)
                if sends == 1:
                    first = answer
                else:
                    recovery["resent"] = {"status": answer.status, "body": answer.body}
                # A 409 to a resend: the first one was recorded (or is still in flight): only a lookup can tell.
                duplicate = sends > 1 and answer.status == 409
                if not answer.outcome_unknown and not duplicate:
                    return settle(answer, request_id, **(recovery if sends > 1 else {}))
                why = why or "the inquiry was answered %d" % answer.status
            except UnreachableError as error:
                if error.stage == "token":
                    error.request_id = request_id
                    raise
                why = why or str(error)
                if sends == 1 and error.timed_out:
                    recovery["timed_out"] = True
            except CardApiError as error:
                error.request_id = request_id
                raise
            try:
                lookup = self._lookup(request_id)
            except UnreachableError as error:
                raise OutcomeUnknownError("%s; the lookup: %s" % (why, error), request_id) from error
            recovery["lookup"] = {"status": lookup.status, "body": lookup.body}
            if lookup.status == 200 and lookup.is_json:
                result = Result(first.status if first else None, request_id, transaction_id_of(lookup.body),
                                first.body if first else None, **recovery)
                if is_declined(lookup.body):
                    raise DeclinedError(result)
                return result
            # 404: never recorded, so the same request under the same Request Id cannot record it twice.
            if lookup.status != 404 or duplicate:
                break
        raise OutcomeUnknownError("%s; the lookup answered %d" % (why, lookup.status), request_id)


def too_long(answer: Answer, wait: float) -> str:
    return "asked to wait %d s (Retry-After: %s), beyond %d s" % (wait, answer.retry_after, PATIENCE_S)


def settle(answer: Answer, request_id: Optional[str], **recovery: Any) -> Result:
    """A final answer: a result, or the error that tells the caller what kind of answer it was."""
    result = Result(answer.status, request_id, transaction_id_of(answer.body), answer.body, answer.location, **recovery)
    if answer.status >= 300:
        raise RefusedError("answered %d" % answer.status, result)
    if is_declined(answer.body):
        raise DeclinedError(result)
    return result


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line; a usage error exits 2 with the usage on stderr."""
    parser = argparse.ArgumentParser(prog="python3 client.py", description="Card Services API starter client")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("token", help="the cached token's metadata (never the token)")
    balance = commands.add_parser("balance", help="Balance Inquiry")
    balance.add_argument("card")
    balance.add_argument("--location", default=DEFAULT_LOCATION)
    gift = commands.add_parser("gift", help="Gift Balance Inquiry")
    gift.add_argument("card")
    gift.add_argument("--location", default=DEFAULT_LOCATION)
    gift.add_argument("--request-id", default=None)
    lookup = commands.add_parser("lookup", help="Lookup Transaction by Request Id")
    lookup.add_argument("request_id")
    return parser.parse_args(argv)


def run_command(client: CardApiClient, args: argparse.Namespace) -> dict:
    if args.command == "token":
        token = client.get_token()
        expires_in = max(0, int(parse_iso(token.expires_at) - time.time()))
        return {
            "token_type": token.token_type,
            "scope": token.scope,
            "expires_at": token.expires_at,
            "expires_in": expires_in,
        }
    if args.command == "balance":
        return client.balance(args.card, args.location).to_json()
    if args.command == "lookup":
        return client.lookup(args.request_id).to_json()
    return client.gift(args.card, args.location, args.request_id).to_json()


def main(argv: Optional[list[str]] = None, env: Optional[Mapping[str, str]] = None) -> int:
    """Runs one command; returns the exit code (API specification §12: 0 answered, 1 no answer or no patience, 2 usage)."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        printed = run_command(CardApiClient(Config.from_env(env)), args)
    except DeclinedError as declined:
        printed = declined.result.to_json()
    except RateLimitedError as error:
        print("error: %s" % error, file=sys.stderr)
        return 1
    except RefusedError as refused:
        printed = refused.result.to_json(refused.stage)
    # No answer, an unknown outcome, configuration, a cache that cannot be written: the reason, never a traceback.
    except (CardApiError, ConfigError, OSError) as error:
        request_id = getattr(error, "request_id", None)
        hint = " (Request Id %s)" % request_id if request_id else ""
        if isinstance(error, OutcomeUnknownError):
            hint = " (Request Id %s: learn its outcome with `lookup %s`)" % (request_id, request_id)
        print("error: %s%s" % (error, hint), file=sys.stderr)
        return 1
    print(json.dumps(printed, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
