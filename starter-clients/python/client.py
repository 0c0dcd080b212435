#!/usr/bin/env python3
"""Card Services API starter client: Python 3.9+, standard library only. See README.md."""
import email.utils
import json
import os
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import datetime, timezone

TOKEN_PATH = "/reporting/v1/auth/token"
GIFT_PATH = "/transaction/v1/gift/balance-inquiry"
BALANCE_PATH = "/transaction/v1/balance-inquiry"
LOOKUP_PATH = "/transaction/v1/transactions/request-id/"
DEFAULT_LOCATION = "store-001"
# Renew this long before expiry, so a token never expires between the check and the call.
RENEW_MARGIN_S = 60
MAX_RETRY_AFTER_S = 60

USAGE = """usage: python3 client.py token
       python3 client.py balance CARD [--location ID]
       python3 client.py gift CARD [--location ID] [--request-id ID]
       python3 client.py lookup REQUEST_ID"""


class ConfigError(Exception):
    pass


class UsageError(Exception):
    pass


class NoAnswerError(Exception):
    """No answer in time, or none at all: the caller decides what that means."""

    def __init__(self, message, timed_out=False, url=""):
        super().__init__(message)
        self.timed_out = timed_out
        self.url = url


def load_config(env=None):
    """The configuration from environment variables (never from a file: the secret stays out of the code)."""
    env = os.environ if env is None else env

    def need(name):
        value = env.get(name, "")
        if not value:
            raise ConfigError(name + " is not set")
        return value

    timeout_text = env.get("CARD_API_TIMEOUT_MS") or "10000"
    if not timeout_text.isdigit() or int(timeout_text) <= 0:
        raise ConfigError("CARD_API_TIMEOUT_MS must be a positive integer")
    return {
        "auth_url": need("CARD_API_AUTH_URL").rstrip("/"),
        "base_url": need("CARD_API_BASE_URL").rstrip("/"),
        "client_id": need("CARD_API_CLIENT_ID"),
        "client_secret": need("CARD_API_CLIENT_SECRET"),
        "timeout_s": int(timeout_text) / 1000,
        "cache_file": env.get("CARD_API_TOKEN_CACHE") or ".card-api-token.json",
    }


def parse_body(raw):
    text = raw.decode("utf-8", errors="replace")
    if text == "":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def retry_after_s(header, now=None):
    """How long a 429 asks to wait: seconds or an HTTP date; 1 s when unreadable, never more than a minute."""
    seconds = 1.0
    if header and header.strip().isdigit():
        seconds = float(header.strip())
    elif header:
        try:
            when = email.utils.parsedate_to_datetime(header)
            seconds = when.timestamp() - (time.time() if now is None else now)
        except (TypeError, ValueError):
            pass
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


def iso(timestamp):
    moment = datetime.fromtimestamp(timestamp, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def parse_iso(text):
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def card_body(card, location):
    return {
        "data": {
            "entry_mode": "keyed",
            "card_number": card,
            "pin_mode": "none",
            "originator": {"location_id": location},
        }
    }


class CardApiClient:
    def __init__(self, config):
        self.config = config
        self.token = None

    def send(self, url, method, headers, body=None):
        """One HTTP exchange: (status, headers, parsed body); an HTTP error status is an answer too."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        origin = urllib.parse.urlsplit(url).netloc
        try:
            with urllib.request.urlopen(request, timeout=self.config["timeout_s"]) as response:
                return response.status, response.headers, parse_body(response.read())
        except urllib.error.HTTPError as error:
            return error.code, error.headers, parse_body(error.read())
        except (socket.timeout, TimeoutError) as error:
            raise NoAnswerError("%s: no answer within %d ms" % (origin, self.config["timeout_s"] * 1000), True, url) from error
        except urllib.error.URLError as error:
            timed_out = isinstance(error.reason, (socket.timeout, TimeoutError))
            raise NoAnswerError("%s: %s" % (origin, error.reason), timed_out, url) from error
        except OSError as error:
            raise NoAnswerError("%s: %s" % (origin, error), False, url) from error

    def read_cache(self):
        try:
            with open(self.config["cache_file"], encoding="utf-8") as file:
                cached = json.load(file)
            fresh = parse_iso(cached["expires_at"]) - time.time() > RENEW_MARGIN_S
            ours = cached.get("auth_url") == self.config["auth_url"] and cached.get("client_id") == self.config["client_id"]
            return cached if fresh and ours and isinstance(cached.get("access_token"), str) else None
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def write_cache(self, token):
        path = self.config["cache_file"]
        temporary = "%s.%d.tmp" % (path, os.getpid())
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(token, file)
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)

    def request_token(self):
        """API specification §4.1: the only request that carries the secret. Returns (token, None) or (None, error answer)."""
        config = self.config
        body = {"client_id": config["client_id"], "client_secret": config["client_secret"], "grant_type": "client_credentials"}
        headers = {"Content-Type": "application/json; charset=utf-8", "Accept": "application/json"}
        status, _, answer = self.send(config["auth_url"] + TOKEN_PATH, "POST", headers, body)
        attributes = (answer.get("data") or {}).get("attributes") or {} if isinstance(answer, dict) else {}
        if status != 200 or not isinstance(attributes.get("access_token"), str):
            return None, {"status": status, "body": answer}
        token = {
            "auth_url": config["auth_url"],
            "client_id": config["client_id"],
            "access_token": attributes["access_token"],
            "token_type": attributes.get("token_type", "Bearer"),
            "scope": attributes.get("scope", ""),
            "expires_at": iso(time.time() + float(attributes.get("expires_in", 0))),
        }
        self.write_cache(token)
        self.token = token
        return token, None

    def get_token(self):
        """API specification §5.7: the token in memory, else the cached one, else a new one."""
        if self.token and parse_iso(self.token["expires_at"]) - time.time() > RENEW_MARGIN_S:
            return self.token, None
        cached = self.read_cache()
        if cached:
            self.token = cached
            return cached, None
        return self.request_token()

    def call(self, method, path, body=None, request_id=None):
        """One API call with the duties around it: 401 → one new token and once more; 429 → wait, once more."""
        token, error = self.get_token()
        if error:
            return dict(error, stage="token")

        def attempt(current):
            headers = {"Authorization": "Bearer " + current["access_token"], "Accept": "application/json"}
            if body is not None:
                headers["Content-Type"] = "application/json"
            if request_id is not None:
                headers["X-Request-Id"] = request_id
            return self.send(self.config["base_url"] + path, method, headers, body)

        status, headers, answer = attempt(token)
        if status == 401:
            token, error = self.request_token()
            if error:
                return dict(error, stage="token")
            status, headers, answer = attempt(token)
        if status == 429:
            time.sleep(retry_after_s(headers.get("Retry-After")))
            status, headers, answer = attempt(self.token)
        return {"status": status, "body": answer}

    def balance(self, card, location=DEFAULT_LOCATION):
        return self.call("POST", BALANCE_PATH, card_body(card, location))

    def lookup(self, request_id):
        return self.call("GET", LOOKUP_PATH + urllib.parse.quote(request_id, safe=""))

    def gift(self, card, location=DEFAULT_LOCATION, request_id=None):
        """API specification §4.3: a fresh Request Id per inquiry; API specification §4.3.3: no answer in time → look it up before anything else."""
        request_id = request_id or str(uuid.uuid4())
        try:
            return dict(self.call("POST", GIFT_PATH, card_body(card, location), request_id), request_id=request_id)
        except NoAnswerError as error:
            # Only the inquiry itself may have been recorded without our hearing of it; a token request may not.
            if not (error.timed_out and error.url.endswith(GIFT_PATH)):
                raise
            lookup = self.lookup(request_id)
            return {"status": None, "body": None, "request_id": request_id, "timed_out": True, "lookup": lookup}


def parse_args(argv):
    """The command line: (command, argument, options)."""
    allowed = {"token": [], "balance": ["--location"], "gift": ["--location", "--request-id"], "lookup": []}
    if not argv or argv[0] not in allowed:
        raise UsageError("unknown command: " + (argv[0] if argv else "(none)"))
    command, rest = argv[0], argv[1:]
    positional, options, i = [], {}, 0
    while i < len(rest):
        if rest[i].startswith("--"):
            if rest[i] not in allowed[command] or i + 1 >= len(rest):
                raise UsageError("bad option " + rest[i])
            options[rest[i][2:]] = rest[i + 1]
            i += 2
        else:
            positional.append(rest[i])
            i += 1
    if len(positional) != (0 if command == "token" else 1):
        raise UsageError("wrong arguments for " + command)
    return command, (positional[0] if positional else None), options


def call_output(answer, request_id=None):
    output = {"status": answer["status"], "request_id": request_id, "body": answer["body"]}
    if "stage" in answer:
        output["stage"] = answer["stage"]
    return output


def run_command(client, command, argument, options):
    location = options.get("location", DEFAULT_LOCATION)
    if command == "token":
        token, error = client.get_token()
        if error:
            return {"status": error["status"], "body": error["body"]}
        expires_in = max(0, int(parse_iso(token["expires_at"]) - time.time()))
        return {"token_type": token["token_type"], "scope": token["scope"], "expires_at": token["expires_at"], "expires_in": expires_in}
    if command == "balance":
        return call_output(client.balance(argument, location))
    if command == "lookup":
        return call_output(client.lookup(argument), argument)
    answer = client.gift(argument, location, options.get("request-id"))
    output = call_output(answer, answer["request_id"])
    if answer.get("timed_out"):
        output["timed_out"] = True
        output["lookup"] = {"status": answer["lookup"]["status"], "body": answer["lookup"]["body"]}
    return output


def main(argv=None):
    """Runs one command; returns the exit code."""
    try:
        command, argument, options = parse_args(sys.argv[1:] if argv is None else argv)
        client = CardApiClient(load_config())
        print(json.dumps(run_command(client, command, argument, options), separators=(",", ":")))
        return 0
    except UsageError as error:
        print("error: %s\n%s" % (error, USAGE), file=sys.stderr)
        return 2
    # Configuration, no answer, or a token cache that cannot be written: the reason, never a traceback.
    except (ConfigError, NoAnswerError, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
