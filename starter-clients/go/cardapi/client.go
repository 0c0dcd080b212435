// Package cardapi is a Card Services API client that keeps every duty the specification puts on a client.
// Go 1.19+, standard library only. See ../README.md.
package cardapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Version is the client's version, sent in its User-Agent.
const Version = "1.1.0"

const (
	tokenPath   = "/reporting/v1/auth/token"
	giftPath    = "/transaction/v1/gift/balance-inquiry"
	balancePath = "/transaction/v1/balance-inquiry"
	lookupPath  = "/transaction/v1/transactions/request-id/"
	// DefaultLocation is the embedded sandbox's demo location.
	DefaultLocation = "store-001"
	// Renew this long before expiry (half the lifetime for a short one), so a token never expires in flight.
	renewMargin = 60 * time.Second
	// Patience is the longest Retry-After waited out; beyond it the call gives up without calling again.
	Patience = 60 * time.Second
	// A Retry-After given as an HTTP date has whole seconds: wait past the second it names.
	dateMargin = time.Second
	// A Gift Balance Inquiry whose outcome is unknown is sent again (same Request Id) at most this often.
	maxGiftSends = 3
	isoMillis    = "2006-01-02T15:04:05.000Z"
)

// Pauses before the 2nd and 3rd try of a token request or a read: never a tight loop against a failing server.
var backoff = []time.Duration{600 * time.Millisecond, 1200 * time.Millisecond}

var userAgent = fmt.Sprintf("card-api-client-go/%s (%s)", Version, runtime.Version())

// Config comes from environment variables only, so the secret stays out of the code.
type Config struct {
	AuthURL, BaseURL, ClientID, ClientSecret string
	Timeout                                  time.Duration
	CacheFile                                string
}

// ConfigError says which variable is missing or wrong.
type ConfigError struct{ Message string }

func (e *ConfigError) Error() string { return e.Message }

var positiveInteger = regexp.MustCompile(`^[1-9][0-9]{0,17}$`)

// LoadConfig reads the CARD_API_ variables through getenv (os.Getenv in the command).
func LoadConfig(getenv func(string) string) (Config, error) {
	timeout := getenv("CARD_API_TIMEOUT_MS")
	if timeout == "" {
		timeout = "10000"
	}
	if !positiveInteger.MatchString(timeout) {
		return Config{}, &ConfigError{"CARD_API_TIMEOUT_MS must be a positive integer"}
	}
	ms, _ := strconv.ParseInt(timeout, 10, 64)
	config := Config{Timeout: time.Duration(ms) * time.Millisecond, CacheFile: getenv("CARD_API_TOKEN_CACHE")}
	if config.CacheFile == "" {
		config.CacheFile = ".card-api-token.json"
	}
	for _, field := range []struct {
		name string
		into *string
	}{
		{"CARD_API_AUTH_URL", &config.AuthURL},
		{"CARD_API_BASE_URL", &config.BaseURL},
		{"CARD_API_CLIENT_ID", &config.ClientID},
		{"CARD_API_CLIENT_SECRET", &config.ClientSecret},
	} {
		if *field.into = getenv(field.name); *field.into == "" {
			return Config{}, &ConfigError{field.name + " is not set"}
		}
	}
	config.AuthURL = strings.TrimRight(config.AuthURL, "/")
	config.BaseURL = strings.TrimRight(config.BaseURL, "/")
	return config, nil
}

// Answer is one HTTP answer. Body is the answer as JSON (json.RawMessage), its text when it is not JSON
// (IsJSON false), or nil when empty.
type Answer struct {
	Status               int
	Body                 any
	IsJSON               bool
	RetryAfter, Location string
}

// outcomeUnknown is a server error, or a success that could not be read: what happened cannot be told from it.
func (a *Answer) outcomeUnknown() bool {
	return a.Status >= 500 || (a.Status < 300 && !a.IsJSON)
}

// Exchange is one answer as printed: its status and body.
type Exchange struct {
	Status int `json:"status"`
	Body   any `json:"body"`
}

// Result is what a call came to. For a Gift Balance Inquiry whose answer was lost, Lookup is what found it.
type Result struct {
	Status        *int
	RequestID     string
	TransactionID string
	Body          any
	Location      string
	TimedOut      bool
	Lookup        *Exchange
	Resent        *Exchange
}

// UnreachableError is no answer: connection refused or reset, the answer cut short, or none in time.
type UnreachableError struct {
	Message   string
	TimedOut  bool
	Stage     string // "token" when the token request is what got no answer
	RequestID string
}

func (e *UnreachableError) Error() string { return e.Message }

// OutcomeUnknownError is a Gift Balance Inquiry that was sent, and neither its answer nor a lookup said
// whether it was recorded.
type OutcomeUnknownError struct{ Message, RequestID string }

func (e *OutcomeUnknownError) Error() string { return e.Message }

// RefusedError is an answer that is not a result: any 3xx, 4xx, or a 5xx a read still got after its retries.
type RefusedError struct {
	Result *Result
	Code   string // errors[0].code of the answer, when it has one
	Stage  string
}

func (e *RefusedError) Error() string { return fmt.Sprintf("answered %d", *e.Result.Status) }

// RateLimitedError is a 429 whose Retry-After is beyond Patience: nothing more was sent.
type RateLimitedError struct {
	Message string
	Result  *Result
}

func (e *RateLimitedError) Error() string { return e.Message }

// DeclinedError is a Gift Balance Inquiry answered response_status "declined": a result, never sent again.
type DeclinedError struct{ Result *Result }

func (e *DeclinedError) Error() string { return "declined" }

// Token is what the cache file holds (never printed).
type Token struct {
	AuthURL     string        `json:"auth_url"`
	ClientID    string        `json:"client_id"`
	AccessToken string        `json:"access_token"`
	TokenType   string        `json:"token_type"`
	Scope       string        `json:"scope"`
	ExpiresAt   string        `json:"expires_at"`
	lifetime    time.Duration // kept in memory only; a cached token is renewed renewMargin before expiry
}

// Left is how long the token has before it expires (negative when unreadable).
func (t *Token) Left() time.Duration {
	expires, err := time.Parse(time.RFC3339Nano, t.ExpiresAt)
	if err != nil {
		return -1
	}
	return time.Until(expires)
}

func (t *Token) fresh() bool {
	margin := renewMargin
	if t.lifetime > 0 && t.lifetime/2 < margin {
		margin = t.lifetime / 2
	}
	return t.Left() > margin
}

// Client is a Card Services API client. It is not safe for concurrent use.
type Client struct {
	config Config
	http   *http.Client
	token  *Token
}

// New makes a client. It follows no redirect: a 3xx is the answer, so the token never goes to another host.
func New(config Config) *Client {
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Client{config: config, http: &http.Client{CheckRedirect: noRedirect}}
}

// send is one HTTP exchange, headers and whole body within config.Timeout.
func (c *Client) send(ctx context.Context, method, target string, headers map[string]string,
	body any) (*Answer, error) {
	origin := target
	if parsed, err := url.Parse(target); err == nil {
		origin = parsed.Scheme + "://" + parsed.Host
	}
	var payload io.Reader
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		payload = bytes.NewReader(encoded)
	}
	ctx, cancel := context.WithTimeout(ctx, c.config.Timeout)
	defer cancel()
	request, err := http.NewRequestWithContext(ctx, method, target, payload)
	if err != nil {
		return nil, &UnreachableError{Message: origin + ": " + err.Error()}
	}
	request.Header.Set("User-Agent", userAgent)
	request.Header.Set("Accept", "application/json")
	for name, value := range headers {
		request.Header.Set(name, value)
	}
	response, err := c.http.Do(request)
	var text []byte
	if err == nil {
		text, err = io.ReadAll(response.Body)
		response.Body.Close()
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			message := fmt.Sprintf("%s: no answer within %d ms", origin, c.config.Timeout.Milliseconds())
			return nil, &UnreachableError{Message: message, TimedOut: true}
		}
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			err = urlErr.Err
		}
		return nil, &UnreachableError{Message: origin + ": " + err.Error()}
	}
	answer := &Answer{Status: response.StatusCode, IsJSON: true}
	answer.RetryAfter, answer.Location = response.Header.Get("Retry-After"), response.Header.Get("Location")
	if len(text) > 0 {
		var compact bytes.Buffer
		if json.Compact(&compact, text) == nil {
			answer.Body = json.RawMessage(compact.Bytes())
		} else {
			answer.Body, answer.IsJSON = string(text), false
		}
	}
	return answer, nil
}

// at is the value at a path of object keys in a JSON answer, or nil.
func at(body any, keys ...string) any {
	raw, ok := body.(json.RawMessage)
	if !ok {
		return nil
	}
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var value any
	if decoder.Decode(&value) != nil {
		return nil
	}
	for _, key := range keys {
		object, ok := value.(map[string]any)
		if !ok {
			return nil
		}
		value = object[key]
	}
	return value
}

func sleep(ctx context.Context, wait time.Duration) error {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Client) readCache() *Token {
	text, err := os.ReadFile(c.config.CacheFile)
	if err != nil {
		return nil
	}
	var cached Token
	if json.Unmarshal(text, &cached) != nil || cached.AccessToken == "" {
		return nil
	}
	if cached.AuthURL != c.config.AuthURL || cached.ClientID != c.config.ClientID || !cached.fresh() {
		return nil
	}
	return &cached
}

func (c *Client) writeCache(token *Token) error {
	text, err := json.Marshal(token)
	if err != nil {
		return err
	}
	temporary := fmt.Sprintf("%s.%d.tmp", c.config.CacheFile, os.Getpid())
	if err := os.WriteFile(temporary, text, 0o600); err != nil {
		return err
	}
	// WriteFile's mode applies only to a file it creates: a leftover temporary file keeps its own.
	if err := os.Chmod(temporary, 0o600); err != nil {
		return err
	}
	return os.Rename(temporary, c.config.CacheFile)
}

// RequestToken is API specification §4.1, the only request that carries the secret: at most 3 tries when the endpoint fails (5xx,
// 429, no answer), spaced by backoff; a 4xx or 3xx is the answer (*RefusedError).
func (c *Client) RequestToken(ctx context.Context) (*Token, error) {
	credentials := map[string]string{
		"client_id":     c.config.ClientID,
		"client_secret": c.config.ClientSecret,
		"grant_type":    "client_credentials",
	}
	headers := map[string]string{"Content-Type": "application/json; charset=utf-8"}
	failure := ""
	for attempt := 0; attempt <= len(backoff); attempt++ {
		wait := time.Duration(0)
		answer, err := c.send(ctx, "POST", c.config.AuthURL+tokenPath, headers, credentials)
		switch {
		case err != nil:
			failure = err.Error()
		case answer.Status == 200:
			if access, ok := at(answer.Body, "data", "attributes", "access_token").(string); ok {
				return c.keep(access, answer.Body)
			}
			failure = "the token endpoint answered 200 without a token"
		case answer.Status < 500 && answer.Status != 429:
			status := answer.Status
			result := &Result{Status: &status, Body: answer.Body, Location: answer.Location}
			return nil, &RefusedError{Result: result, Code: errorCode(answer.Body), Stage: "token"}
		default:
			failure = fmt.Sprintf("the token endpoint answered %d", answer.Status)
			if answer.Status == 429 {
				if wait = retryAfter(answer.RetryAfter, time.Now()); wait > Patience {
					return nil, tooLong(answer, wait, "")
				}
			}
		}
		if attempt == len(backoff) {
			break
		}
		if wait < backoff[attempt] {
			wait = backoff[attempt]
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
	message := fmt.Sprintf("no token after %d requests: %s", len(backoff)+1, failure)
	return nil, &UnreachableError{Message: message, Stage: "token"}
}

func (c *Client) keep(access string, body any) (*Token, error) {
	token := &Token{AuthURL: c.config.AuthURL, ClientID: c.config.ClientID, AccessToken: access, TokenType: "Bearer"}
	if tokenType, ok := at(body, "data", "attributes", "token_type").(string); ok {
		token.TokenType = tokenType
	}
	token.Scope, _ = at(body, "data", "attributes", "scope").(string)
	lifetime, _ := at(body, "data", "attributes", "expires_in").(json.Number)
	seconds, _ := lifetime.Float64()
	token.lifetime = time.Duration(seconds * float64(time.Second))
	token.ExpiresAt = time.Now().Add(token.lifetime).UTC().Format(isoMillis)
	if err := c.writeCache(token); err != nil {
		return nil, err
	}
	c.token = token
	return token, nil
}

// Token is API specification §5.7: the token in memory, else the cached one, else a new one; renewed before it expires (API specification §5.8).
func (c *Client) Token(ctx context.Context) (*Token, error) {
	if c.token != nil && c.token.fresh() {
		return c.token, nil
	}
	if cached := c.readCache(); cached != nil {
		c.token = cached
		return cached, nil
	}
	return c.RequestToken(ctx)
}

// call is one API call with the duties around it. A 401: one new token, the same call once more (API specification §5.8). A 429:
// wait Retry-After, then once more (a second 429 is the answer, after its own wait), or give up when it is beyond
// Patience (RFC 9110). A read (retry) is tried up to 3 times when its outcome is unknown; a write never is here
// (see Gift). A 403 is never retried.
func (c *Client) call(ctx context.Context, method, path string, body any, requestID string,
	retry bool) (*Answer, error) {
	token, err := c.Token(ctx)
	if err != nil {
		return nil, err
	}
	renewed, waited, tries := false, false, 0
	for {
		headers := map[string]string{"Authorization": "Bearer " + token.AccessToken}
		if body != nil {
			headers["Content-Type"] = "application/json"
		}
		if requestID != "" {
			headers["X-Request-Id"] = requestID
		}
		answer, err := c.send(ctx, method, c.config.BaseURL+path, headers, body)
		var pause time.Duration
		switch {
		case err != nil:
			if !retry || tries >= len(backoff) {
				return nil, err
			}
			pause, tries = backoff[tries], tries+1
		case answer.Status == http.StatusUnauthorized && !renewed:
			renewed = true
			if token, err = c.RequestToken(ctx); err != nil {
				return nil, err
			}
		case answer.Status == http.StatusTooManyRequests:
			pause = retryAfter(answer.RetryAfter, time.Now())
			if pause > Patience {
				return nil, tooLong(answer, pause, requestID)
			}
			if waited {
				// A second 429 is the answer, given once its window has passed: no next command calls inside it.
				if err := sleep(ctx, pause); err != nil {
					return nil, err
				}
				return answer, nil
			}
			waited = true
		case retry && answer.outcomeUnknown() && tries < len(backoff):
			pause, tries = backoff[tries], tries+1
		default:
			return answer, nil
		}
		if err := sleep(ctx, pause); err != nil {
			return nil, err
		}
	}
}

var wholeSeconds = regexp.MustCompile(`^[0-9]{1,9}$`)

// retryAfter is how long a 429 asks to wait (RFC 9110 §10.2.3): seconds or an HTTP date; 1 s when absent or
// unreadable.
func retryAfter(header string, now time.Time) time.Duration {
	header = strings.TrimSpace(header)
	if wholeSeconds.MatchString(header) {
		seconds, _ := strconv.Atoi(header)
		return time.Duration(seconds)*time.Second + 100*time.Millisecond
	}
	if when, err := http.ParseTime(header); err == nil {
		if wait := when.Sub(now); wait > 0 {
			return wait + dateMargin
		}
		return dateMargin
	}
	return time.Second
}

func tooLong(answer *Answer, wait time.Duration, requestID string) error {
	status := answer.Status
	message := fmt.Sprintf("asked to wait %d s (Retry-After: %s), beyond %d s", int(wait.Seconds()),
		answer.RetryAfter, int(Patience.Seconds()))
	return &RateLimitedError{Message: message, Result: &Result{Status: &status, RequestID: requestID, Body: answer.Body}}
}

func errorCode(body any) string {
	errs, _ := at(body, "errors").([]any)
	if len(errs) == 0 {
		return ""
	}
	first, _ := errs[0].(map[string]any)
	code, _ := first["code"].(string)
	return code
}

// settle turns a final answer into a result, or the error that says what kind of answer it was.
func settle(answer *Answer, result *Result) (*Result, error) {
	status := answer.Status
	result.Status, result.Body, result.Location = &status, answer.Body, answer.Location
	result.TransactionID, _ = at(answer.Body, "data", "transaction_id").(string)
	if status >= 300 {
		return nil, &RefusedError{Result: result, Code: errorCode(answer.Body)}
	}
	if at(answer.Body, "data", "response_status") == "declined" {
		return nil, &DeclinedError{Result: result}
	}
	return result, nil
}

// Balance is API specification §4.4 Balance Inquiry: it records nothing, so it is retried when its answer is lost.
func (c *Client) Balance(ctx context.Context, card, location string) (*Result, error) {
	answer, err := c.call(ctx, "POST", balancePath, cardBody(card, location), "", true)
	if err != nil {
		return nil, err
	}
	return settle(answer, &Result{})
}

// Lookup is Lookup Transaction by Request Id (API specification §4.3.3); a 404 (never recorded) is a *RefusedError.
func (c *Client) Lookup(ctx context.Context, requestID string) (*Result, error) {
	answer, err := c.lookup(ctx, requestID)
	if err != nil {
		return nil, err
	}
	return settle(answer, &Result{RequestID: requestID})
}

func (c *Client) lookup(ctx context.Context, requestID string) (*Answer, error) {
	return c.call(ctx, "GET", lookupPath+url.PathEscape(requestID), nil, "", true)
}

// Gift is API specification §4.3 Gift Balance Inquiry under a fresh Request Id (API specification §8) unless one is given. When its outcome is
// unknown (5xx, no answer in time, a reset, a cut or unreadable body), nothing else happens for that card before
// the outcome is learned (API specification §4.3.3): a lookup by the Request Id; when that finds nothing, the same request with the
// same Request Id once more.
func (c *Client) Gift(ctx context.Context, card, location, requestID string) (*Result, error) {
	if requestID == "" {
		requestID = NewRequestID()
	}
	body := cardBody(card, location)
	var first *Answer
	recovery := &Result{RequestID: requestID}
	why := ""
	var found *Answer
	for sends := 1; sends <= maxGiftSends; sends++ {
		duplicate := false
		answer, err := c.call(ctx, "POST", giftPath, body, requestID, false)
		var unreachable *UnreachableError
		switch {
		case errors.As(err, &unreachable) && unreachable.Stage != "token":
			if why == "" {
				why = err.Error()
			}
			recovery.TimedOut = recovery.TimedOut || (sends == 1 && unreachable.TimedOut)
		case err != nil:
			return nil, withRequestID(err, requestID)
		default:
			if sends == 1 {
				first = answer
			} else {
				recovery.Resent = &Exchange{answer.Status, answer.Body}
			}
			// A 409 to a resend: the first one was recorded (or is still in flight): only a lookup can tell.
			duplicate = sends > 1 && answer.Status == http.StatusConflict
			if !answer.outcomeUnknown() && !duplicate {
				if sends == 1 {
					recovery = &Result{RequestID: requestID}
				}
				return settle(answer, recovery)
			}
			if why == "" {
				why = fmt.Sprintf("the inquiry was answered %d", answer.Status)
			}
		}
		if found, err = c.lookup(ctx, requestID); err != nil {
			return nil, &OutcomeUnknownError{fmt.Sprintf("%s; the lookup: %s", why, err), requestID}
		}
		recovery.Lookup = &Exchange{found.Status, found.Body}
		if found.Status == http.StatusOK && found.IsJSON {
			return recovered(first, found, recovery)
		}
		// 404: never recorded, so the same request under the same Request Id cannot record it twice.
		if found.Status != http.StatusNotFound || duplicate {
			break
		}
	}
	message := fmt.Sprintf("%s; the lookup answered %d", why, found.Status)
	return nil, &OutcomeUnknownError{message, requestID}
}

// recovered is a Gift Balance Inquiry whose outcome a lookup told: its own answer, and what the lookup found.
func recovered(first, found *Answer, result *Result) (*Result, error) {
	if first != nil {
		status := first.Status
		result.Status, result.Body = &status, first.Body
	}
	result.TransactionID, _ = at(found.Body, "data", "transaction_id").(string)
	if at(found.Body, "data", "response_status") == "declined" {
		return nil, &DeclinedError{Result: result}
	}
	return result, nil
}

func withRequestID(err error, requestID string) error {
	var unreachable *UnreachableError
	var limited *RateLimitedError
	var refused *RefusedError
	switch {
	case errors.As(err, &unreachable):
		unreachable.RequestID = requestID
	case errors.As(err, &limited):
		limited.Result.RequestID = requestID
	case errors.As(err, &refused):
		refused.Result.RequestID = requestID
	}
	return err
}

// NewRequestID is a UUID v4.
func NewRequestID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

type originator struct {
	LocationID string `json:"location_id"`
}

type cardData struct {
	EntryMode  string     `json:"entry_mode"`
	CardNumber string     `json:"card_number"`
	PinMode    string     `json:"pin_mode"`
	Originator originator `json:"originator"`
}

// cardBody is the card request body of API specification §2.3.
func cardBody(card, location string) any {
	if location == "" {
		location = DefaultLocation
	}
	data := cardData{EntryMode: "keyed", CardNumber: card, PinMode: "none", Originator: originator{location}}
	return map[string]cardData{"data": data}
}
