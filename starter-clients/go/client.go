// Card Services API starter client: the client itself (main.go is the command line). Go 1.19+, standard
// library only. See README.md.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

const (
	tokenPath   = "/reporting/v1/auth/token"
	giftPath    = "/transaction/v1/gift/balance-inquiry"
	balancePath = "/transaction/v1/balance-inquiry"
	lookupPath  = "/transaction/v1/transactions/request-id/"
	// DefaultLocation is the embedded sandbox's demo location.
	DefaultLocation = "store-001"
	// Renew this long before expiry, so a token never expires between the check and the call.
	renewMargin   = 60 * time.Second
	maxRetryAfter = 60 * time.Second
	isoMillis     = "2006-01-02T15:04:05.000Z"
)

// Config comes from environment variables only, so the secret stays out of the code.
type Config struct {
	AuthURL, BaseURL, ClientID, ClientSecret string
	Timeout                                  time.Duration
	CacheFile                                string
}

// ConfigError says which variable is missing or wrong.
type ConfigError struct{ Message string }

func (e *ConfigError) Error() string { return e.Message }

// NoAnswerError is no answer in time, or none at all: the caller decides what that means.
type NoAnswerError struct {
	Message  string
	TimedOut bool
	URL      string
}

func (e *NoAnswerError) Error() string { return e.Message }

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

// Answer is one HTTP answer. Body is the answer parsed as JSON (json.RawMessage), its text when it is not JSON,
// or nil when empty. Stage is "token" when the token request is what failed.
type Answer struct {
	Status     int
	RetryAfter string
	Body       interface{}
	Stage      string
}

// Token is what the cache file holds (never printed).
type Token struct {
	AuthURL     string `json:"auth_url"`
	ClientID    string `json:"client_id"`
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	Scope       string `json:"scope"`
	ExpiresAt   string `json:"expires_at"`
}

// Left is how long the token has before it expires (negative when unreadable).
func (t *Token) Left() time.Duration {
	expires, err := time.Parse(time.RFC3339Nano, t.ExpiresAt)
	if err != nil {
		return -1
	}
	return time.Until(expires)
}

// Client is a Card Services API client that keeps every duty the specification puts on a client.
type Client struct {
	config Config
	http   *http.Client
	token  *Token
}

// NewClient makes a client; its HTTP client gives up on any one answer after config.Timeout.
func NewClient(config Config) *Client {
	return &Client{config: config, http: &http.Client{Timeout: config.Timeout}}
}

func (c *Client) send(method, target string, headers map[string]string, body interface{}) (*Answer, error) {
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
	request, err := http.NewRequest(method, target, payload)
	if err != nil {
		return nil, &NoAnswerError{Message: origin + ": " + err.Error(), URL: target}
	}
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
		var netErr net.Error
		if errors.As(err, &netErr) && netErr.Timeout() {
			message := fmt.Sprintf("%s: no answer within %d ms", origin, c.config.Timeout.Milliseconds())
			return nil, &NoAnswerError{Message: message, TimedOut: true, URL: target}
		}
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			err = urlErr.Err
		}
		return nil, &NoAnswerError{Message: origin + ": " + err.Error(), URL: target}
	}
	retryAfter := response.Header.Get("Retry-After")
	return &Answer{Status: response.StatusCode, RetryAfter: retryAfter, Body: parseBody(text)}, nil
}

func parseBody(text []byte) interface{} {
	if len(text) == 0 {
		return nil
	}
	var compact bytes.Buffer
	if json.Compact(&compact, text) == nil {
		return json.RawMessage(compact.Bytes())
	}
	return string(text)
}

// at is the value at a path of object keys in a JSON answer, or nil.
func at(body interface{}, keys ...string) interface{} {
	raw, ok := body.(json.RawMessage)
	if !ok {
		return nil
	}
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var value interface{}
	if decoder.Decode(&value) != nil {
		return nil
	}
	for _, key := range keys {
		object, ok := value.(map[string]interface{})
		if !ok {
			return nil
		}
		value = object[key]
	}
	return value
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
	ours := cached.AuthURL == c.config.AuthURL && cached.ClientID == c.config.ClientID
	if !ours || cached.Left() <= renewMargin {
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

// RequestToken is API specification §4.1, the only request that carries the secret. It returns the token, or the error answer.
func (c *Client) RequestToken() (*Token, *Answer, error) {
	credentials := map[string]string{
		"client_id":     c.config.ClientID,
		"client_secret": c.config.ClientSecret,
		"grant_type":    "client_credentials",
	}
	headers := map[string]string{"Content-Type": "application/json; charset=utf-8", "Accept": "application/json"}
	answer, err := c.send("POST", c.config.AuthURL+tokenPath, headers, credentials)
	if err != nil {
		return nil, nil, err
	}
	access, ok := at(answer.Body, "data", "attributes", "access_token").(string)
	if answer.Status != 200 || !ok {
		return nil, answer, nil
	}
	token := &Token{AuthURL: c.config.AuthURL, ClientID: c.config.ClientID, AccessToken: access, TokenType: "Bearer"}
	if tokenType, ok := at(answer.Body, "data", "attributes", "token_type").(string); ok {
		token.TokenType = tokenType
	}
	token.Scope, _ = at(answer.Body, "data", "attributes", "scope").(string)
	lifetime, _ := at(answer.Body, "data", "attributes", "expires_in").(json.Number)
	seconds, _ := lifetime.Float64()
	expires := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	token.ExpiresAt = expires.UTC().Format(isoMillis)
	if err := c.writeCache(token); err != nil {
		return nil, nil, err
	}
	c.token = token
	return token, nil, nil
}

// GetToken is API specification §5.7: the token in memory, else the cached one, else a new one.
func (c *Client) GetToken() (*Token, *Answer, error) {
	if c.token != nil && c.token.Left() > renewMargin {
		return c.token, nil, nil
	}
	if cached := c.readCache(); cached != nil {
		c.token = cached
		return cached, nil, nil
	}
	return c.RequestToken()
}

func (c *Client) attempt(method, path string, body interface{}, requestID string) (*Answer, error) {
	headers := map[string]string{"Authorization": "Bearer " + c.token.AccessToken, "Accept": "application/json"}
	if body != nil {
		headers["Content-Type"] = "application/json"
	}
	if requestID != "" {
		headers["X-Request-Id"] = requestID
	}
	return c.send(method, c.config.BaseURL+path, headers, body)
}

// Call is one API call with the duties around it: 401 → one new token and once more; 429 → wait, once more.
func (c *Client) Call(method, path string, body interface{}, requestID string) (*Answer, error) {
	_, refused, err := c.GetToken()
	if err != nil || refused != nil {
		return tokenStage(refused, err)
	}
	answer, err := c.attempt(method, path, body, requestID)
	if err == nil && answer.Status == http.StatusUnauthorized {
		if _, refused, err := c.RequestToken(); err != nil || refused != nil {
			return tokenStage(refused, err)
		}
		answer, err = c.attempt(method, path, body, requestID)
	}
	if err == nil && answer.Status == http.StatusTooManyRequests {
		time.Sleep(retryAfter(answer.RetryAfter, time.Now()))
		answer, err = c.attempt(method, path, body, requestID)
	}
	return answer, err
}

func tokenStage(refused *Answer, err error) (*Answer, error) {
	if err != nil {
		return nil, err
	}
	refused.Stage = "token"
	return refused, nil
}

var wholeSeconds = regexp.MustCompile(`^[0-9]{1,9}$`)

// retryAfter is how long a 429 asks to wait: seconds or an HTTP date; 1 s when unreadable, at most a minute.
func retryAfter(header string, now time.Time) time.Duration {
	wait := time.Second
	header = strings.TrimSpace(header)
	if wholeSeconds.MatchString(header) {
		seconds, _ := strconv.Atoi(header)
		wait = time.Duration(seconds) * time.Second
	} else if when, err := http.ParseTime(header); err == nil {
		wait = when.Sub(now)
	}
	if wait < 0 {
		return 0
	}
	if wait > maxRetryAfter {
		return maxRetryAfter
	}
	return wait
}

// Balance is API specification §4.4, Balance Inquiry.
func (c *Client) Balance(card, location string) (*Answer, error) {
	return c.Call("POST", balancePath, cardBody(card, location), "")
}

// Lookup is Lookup Transaction by Request Id (API specification §4.3.3).
func (c *Client) Lookup(requestID string) (*Answer, error) {
	return c.Call("GET", lookupPath+url.PathEscape(requestID), nil, "")
}

// GiftResult is a Gift Balance Inquiry's outcome; when it timed out, Lookup is what its Request Id found.
type GiftResult struct {
	RequestID string
	Answer    *Answer
	TimedOut  bool
	Lookup    *Answer
}

// Gift is API specification §4.3: a fresh Request Id per inquiry (unless one is given); API specification §4.3.3: no answer in time → look it up
// before anything else.
func (c *Client) Gift(card, location, requestID string) (*GiftResult, error) {
	if requestID == "" {
		requestID = newRequestID()
	}
	answer, err := c.Call("POST", giftPath, cardBody(card, location), requestID)
	var noAnswer *NoAnswerError
	// Only the inquiry itself may have been recorded without our hearing of it; a token request may not.
	if errors.As(err, &noAnswer) && noAnswer.TimedOut && strings.HasSuffix(noAnswer.URL, giftPath) {
		lookup, err := c.Lookup(requestID)
		if err != nil {
			return nil, err
		}
		return &GiftResult{RequestID: requestID, TimedOut: true, Lookup: lookup}, nil
	}
	if err != nil {
		return nil, err
	}
	return &GiftResult{RequestID: requestID, Answer: answer}, nil
}

// newRequestID is a UUID v4.
func newRequestID() string {
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
func cardBody(card, location string) interface{} {
	if location == "" {
		location = DefaultLocation
	}
	data := cardData{EntryMode: "keyed", CardNumber: card, PinMode: "none", Originator: originator{location}}
	return map[string]cardData{"data": data}
}
