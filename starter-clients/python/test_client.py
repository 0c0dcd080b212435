"""The client under every fault of ../testing/scenarios.json: ``python3 -m unittest`` in this folder.

The fault-injecting server is ../testing/fault-server.mjs (Node 20+): without ``node`` on the PATH the fault
scenarios are skipped, never passed.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.parse
import urllib.request
import uuid
from typing import Any

import client

HERE = os.path.dirname(os.path.abspath(__file__))
# In a downloaded zip the shared fixtures are inside this folder; in the repository, beside it.
CANDIDATES = (os.path.join(HERE, "testing"), os.path.join(HERE, "..", "testing"))
TESTING = next((folder for folder in CANDIDATES if os.path.isdir(folder)), "")
SCENARIOS = json.load(open(os.path.join(TESTING, "scenarios.json"), encoding="utf-8")) if TESTING else {"scenarios": []}
TIMEOUT_MS = SCENARIOS.get("timeout_ms", 1000)
SECRET = "fault-secret-" + str(uuid.uuid4())


def assert_subset(case: unittest.TestCase, actual: Any, expected: Any, path: str = "stdout") -> None:
    for key, value in expected.items():
        got = actual.get(key) if isinstance(actual, dict) else None
        if value == "*":
            case.assertIsNotNone(got, path + "." + key)
        elif isinstance(value, dict):
            assert_subset(case, got, value, path + "." + key)
        else:
            case.assertEqual(got, value, path + "." + key)


class FaultScenarios(unittest.TestCase):
    server: subprocess.Popen
    url: str

    @classmethod
    def setUpClass(cls) -> None:
        node = shutil.which("node")
        if not node or not TESTING:
            raise unittest.SkipTest("the fault server needs node (20+) and ../testing")
        server = [node, os.path.join(TESTING, "fault-server.mjs")]
        cls.server = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        cls.url = json.loads(cls.server.stdout.readline())["url"]
        cls.work = tempfile.mkdtemp(prefix="card-api-python-")

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stdin.close()
        cls.server.wait(10)
        cls.server.stdout.close()
        shutil.rmtree(cls.work, ignore_errors=True)

    def control(self, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        with urllib.request.urlopen(urllib.request.Request(self.url + path, data=data)) as response:
            return json.load(response)

    def run_client(self, args: list[str], cache: str) -> tuple[int, str, str]:
        env = {
            "CARD_API_AUTH_URL": self.url,
            "CARD_API_BASE_URL": self.url,
            "CARD_API_CLIENT_ID": "fault-client",
            "CARD_API_CLIENT_SECRET": SECRET,
            "CARD_API_TIMEOUT_MS": str(TIMEOUT_MS),
            "CARD_API_TOKEN_CACHE": cache,
        }
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = client.main(args, env)
        return code, out.getvalue(), err.getvalue()

    def check(self, scenario: dict) -> None:
        request_id = "test-" + str(uuid.uuid4())
        cache = os.path.join(self.work, str(uuid.uuid4()) + ".json")
        self.control("/__faults/plan", {"plan": scenario["plan"], "timeout_ms": TIMEOUT_MS})
        results = []
        for index, args in enumerate(scenario["runs"]):
            if index and scenario.get("pause_ms"):
                time.sleep(scenario["pause_ms"] / 1000)
            results.append(self.run_client([arg.replace("{id}", request_id) for arg in args], cache))
        calls = self.control("/__faults/calls")
        story = json.dumps({"results": results, "calls": [[c["kind"], c["status"], c["fault"]] for c in calls]})
        self.assertEqual([code for code, _, _ in results], scenario["exit"], story)
        self.assertEqual([call["kind"] for call in calls], scenario["calls"], story)
        for call in calls:
            self.assertRegex(call["user_agent"], r"^card-api-client-python/\d+\.\d+\.\d+")
            if call["kind"] != "token":
                self.assertNotIn(SECRET, json.dumps(call))
        code, stdout, stderr = results[-1]
        if code != 0:
            self.assertEqual(stdout, "")
            self.assertRegex(stderr, r"^error: \S")
        if scenario.get("same_request_id"):
            ids = {c["request_id"] for c in calls if c["kind"] == "gift"}
            ids |= {urllib.parse.unquote(c["path"].rsplit("/", 1)[1]) for c in calls if c["kind"] == "lookup"}
            self.assertEqual(len(ids), 1, story)
        for i, j in scenario.get("renewed", []):
            self.assertNotEqual(calls[i]["authorization"], calls[j]["authorization"])
        for i, j, ms in scenario.get("gaps", []):
            self.assertGreaterEqual(calls[j]["at"] - calls[i]["at"], ms, story)
        for i, j, ms in scenario.get("within", []):
            self.assertLessEqual(calls[j]["at"] - calls[i]["at"], TIMEOUT_MS + ms, story)
        if "stdout" in scenario:
            expected = json.loads(json.dumps(scenario["stdout"]).replace("{id}", request_id))
            assert_subset(self, json.loads(stdout), expected)


def _scenario_test(scenario: dict):
    def test(self: FaultScenarios) -> None:
        self.check(scenario)

    test.__doc__ = scenario["name"]
    return test


for _number, _scenario in enumerate(SCENARIOS["scenarios"], start=1):
    setattr(FaultScenarios, "test_%02d" % _number, _scenario_test(_scenario))


class RetryAfter(unittest.TestCase):
    def test_seconds_date_absent_unreadable(self) -> None:
        now = 1767225600.0  # 2026-01-01T00:00:00Z
        self.assertAlmostEqual(client.retry_after_s("2", now), 2.1)
        self.assertAlmostEqual(client.retry_after_s("Thu, 01 Jan 2026 00:00:03 GMT", now), 4.0)
        self.assertAlmostEqual(client.retry_after_s("Wed, 31 Dec 2025 23:00:00 GMT", now), 1.0)
        self.assertEqual(client.retry_after_s(None, now), 1.0)
        self.assertEqual(client.retry_after_s("soon", now), 1.0)


class CommandLine(unittest.TestCase):
    def test_usage_error_exits_2(self) -> None:
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as exited:
            client.main(["refund", "6006491000000001"], {})
        self.assertEqual(exited.exception.code, 2)

    def test_missing_configuration_exits_1(self) -> None:
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(client.main(["token"], {"CARD_API_AUTH_URL": "http://127.0.0.1:9"}), 1)
        self.assertEqual(err.getvalue(), "error: CARD_API_BASE_URL is not set\n")


if __name__ == "__main__":
    unittest.main()
