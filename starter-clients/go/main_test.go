package main

// The client under every fault of ../testing/scenarios.json: `go test ./...` in this folder. The fault-injecting
// server is ../testing/fault-server.mjs (Node 20+): without `node` on the PATH the scenarios are skipped.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardapiclient/cardapi"
)

type scenario struct {
	Name          string         `json:"name"`
	Plan          string         `json:"plan"`
	Runs          [][]string     `json:"runs"`
	PauseMs       int            `json:"pause_ms"`
	Exit          []int          `json:"exit"`
	Calls         []string       `json:"calls"`
	SameRequestID bool           `json:"same_request_id"`
	Renewed       [][2]int       `json:"renewed"`
	Gaps          [][3]int64     `json:"gaps"`
	Within        [][3]int64     `json:"within"`
	Stdout        map[string]any `json:"stdout"`
}

type call struct {
	Kind          string `json:"kind"`
	Status        *int   `json:"status"`
	Fault         any    `json:"fault"`
	At            int64  `json:"at"`
	Path          string `json:"path"`
	RequestID     string `json:"request_id"`
	Authorization string `json:"authorization"`
	UserAgent     string `json:"user_agent"`
	Body          string `json:"body"`
}

func testingDir(t *testing.T) string {
	for _, dir := range []string{"testing", filepath.Join("..", "testing")} {
		if _, err := os.Stat(filepath.Join(dir, "scenarios.json")); err == nil {
			return dir
		}
	}
	t.Skip("no testing folder with scenarios.json")
	return ""
}

func startFaultServer(t *testing.T, dir string) string {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("the fault server needs node (20+)")
	}
	server := exec.Command(node, filepath.Join(dir, "fault-server.mjs"))
	stdin, _ := server.StdinPipe()
	stdout, _ := server.StdoutPipe()
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		server.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var started struct{ URL string }
	if err := json.Unmarshal(line, &started); err != nil {
		t.Fatal(err)
	}
	return started.URL
}

func control(t *testing.T, target string, body any, into any) {
	var response *http.Response
	var err error
	if body == nil {
		response, err = http.Get(target)
	} else {
		encoded, _ := json.Marshal(body)
		response, err = http.Post(target, "application/json", bytes.NewReader(encoded))
	}
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	if err := json.NewDecoder(response.Body).Decode(into); err != nil {
		t.Fatal(err)
	}
}

// subset checks that expected holds within actual; "*" is any value but null.
func subset(t *testing.T, actual any, expected map[string]any, path string) {
	object, _ := actual.(map[string]any)
	for key, want := range expected {
		got := object[key]
		switch want := want.(type) {
		case string:
			if want == "*" {
				if got == nil {
					t.Errorf("%s.%s: missing", path, key)
				}
			} else if got != want {
				t.Errorf("%s.%s = %v, want %v", path, key, got, want)
			}
		case map[string]any:
			subset(t, got, want, path+"."+key)
		default:
			if got != want {
				t.Errorf("%s.%s = %v, want %v", path, key, got, want)
			}
		}
	}
}

func TestFaultScenarios(t *testing.T) {
	dir := testingDir(t)
	var fixture struct {
		TimeoutMs int64      `json:"timeout_ms"`
		Scenarios []scenario `json:"scenarios"`
	}
	text, err := os.ReadFile(filepath.Join(dir, "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(text, &fixture); err != nil {
		t.Fatal(err)
	}
	server := startFaultServer(t, dir)
	secret := "fault-secret-" + cardapi.NewRequestID()
	userAgent := regexp.MustCompile(`^card-api-client-go/\d+\.\d+\.\d+`)
	work := t.TempDir()
	for _, each := range fixture.Scenarios {
		each := each
		t.Run(each.Name, func(t *testing.T) {
			id := "test-" + cardapi.NewRequestID()
			env := map[string]string{
				"CARD_API_AUTH_URL":      server,
				"CARD_API_BASE_URL":      server,
				"CARD_API_CLIENT_ID":     "fault-client",
				"CARD_API_CLIENT_SECRET": secret,
				"CARD_API_TIMEOUT_MS":    strings.TrimSpace(string(mustJSON(fixture.TimeoutMs))),
				"CARD_API_TOKEN_CACHE":   filepath.Join(work, cardapi.NewRequestID()+".json"),
			}
			control(t, server+"/__faults/plan", map[string]any{"plan": each.Plan, "timeout_ms": fixture.TimeoutMs}, &map[string]any{})
			var codes []int
			var stdout, stderr bytes.Buffer
			for index, args := range each.Runs {
				if index > 0 && each.PauseMs > 0 {
					time.Sleep(time.Duration(each.PauseMs) * time.Millisecond)
				}
				filled := make([]string, len(args))
				for i, arg := range args {
					filled[i] = strings.ReplaceAll(arg, "{id}", id)
				}
				stdout.Reset()
				stderr.Reset()
				codes = append(codes, run(context.Background(), filled, func(name string) string { return env[name] }, &stdout, &stderr))
			}
			var calls []call
			control(t, server+"/__faults/calls", nil, &calls)
			var kinds []string
			for _, c := range calls {
				kinds = append(kinds, c.Kind)
				if !userAgent.MatchString(c.UserAgent) {
					t.Errorf("User-Agent %q", c.UserAgent)
				}
				if c.Kind != "token" && strings.Contains(string(mustJSON(c)), secret) {
					t.Errorf("the secret in a %s call", c.Kind)
				}
			}
			story := string(mustJSON(map[string]any{"codes": codes, "stdout": stdout.String(), "stderr": stderr.String(), "calls": calls}))
			if string(mustJSON(codes)) != string(mustJSON(each.Exit)) || strings.Join(kinds, ",") != strings.Join(each.Calls, ",") {
				t.Fatalf("exit %v calls %v, want exit %v calls %v\n%s", codes, kinds, each.Exit, each.Calls, story)
			}
			if codes[len(codes)-1] != 0 && (stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), "error: ")) {
				t.Errorf("a failure prints nothing on stdout and its reason on stderr: %s", story)
			}
			if each.SameRequestID {
				ids := map[string]bool{}
				for _, c := range calls {
					if c.Kind == "gift" {
						ids[c.RequestID] = true
					} else if c.Kind == "lookup" {
						looked, _ := url.PathUnescape(c.Path[strings.LastIndex(c.Path, "/")+1:])
						ids[looked] = true
					}
				}
				if len(ids) != 1 {
					t.Errorf("Request Ids %v: %s", ids, story)
				}
			}
			for _, pair := range each.Renewed {
				if calls[pair[0]].Authorization == calls[pair[1]].Authorization {
					t.Errorf("calls %d and %d share a token", pair[0], pair[1])
				}
			}
			for _, gap := range each.Gaps {
				if calls[gap[1]].At-calls[gap[0]].At < gap[2] {
					t.Errorf("call %d came %d ms after call %d, want ≥ %d", gap[1], calls[gap[1]].At-calls[gap[0]].At, gap[0], gap[2])
				}
			}
			for _, bound := range each.Within {
				if calls[bound[1]].At-calls[bound[0]].At > fixture.TimeoutMs+bound[2] {
					t.Errorf("call %d came %d ms after call %d, want ≤ %d", bound[1], calls[bound[1]].At-calls[bound[0]].At, bound[0], fixture.TimeoutMs+bound[2])
				}
			}
			if each.Stdout != nil {
				var printed any
				if err := json.Unmarshal(stdout.Bytes(), &printed); err != nil {
					t.Fatalf("stdout is not JSON: %s", story)
				}
				var expected map[string]any
				json.Unmarshal([]byte(strings.ReplaceAll(string(mustJSON(each.Stdout)), "{id}", id)), &expected)
				subset(t, printed, expected, "stdout")
			}
		})
	}
}

func mustJSON(value any) []byte {
	text, _ := json.Marshal(value)
	return text
}

func TestUsageAndConfiguration(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"refund"}, func(string) string { return "" }, &stdout, &stderr); code != 2 {
		t.Errorf("usage error: exit %d", code)
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"token"}, func(string) string { return "" }, &stdout, &stderr); code != 1 {
		t.Errorf("missing configuration: exit %d", code)
	}
	if stderr.String() != "error: CARD_API_AUTH_URL is not set\n" {
		t.Errorf("stderr %q", stderr.String())
	}
}
