package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/record"
)

// The cloud providers (Gemini, Bedrock, Azure OpenAI, Claude on Bedrock
// and on Vertex AI) end to end through the CLI, each against its wire-format stand-in,
// configured only through the environment the provider documents.

const (
	geminiKey    = "AIza-PLANTED-cli-gemini-789"
	bedrockKeyID = "AKIACLITEST000000001"
	bedrockKey   = "PLANTED/cli/bedrock/secret/0123456789"
	azureKey     = "PLANTED0cli0azure0key0123456789"
	vertexToken  = "ya29.PLANTED-cli-vertex-0123456789"
)

var cloudSpecs = map[wiremodel.API]string{
	wiremodel.Gemini:      "gemini:gemini-test",
	wiremodel.Bedrock:     "bedrock:anthropic.claude-test-v1:0",
	wiremodel.AzureOpenAI: "azure-openai:gpt-deployment",
	// Claude on Bedrock through the Anthropic SDK's bedrock option.
	wiremodel.AnthropicBedrock: "anthropic-bedrock:anthropic.claude-test-v1:0",
	// Claude on Vertex AI through the Anthropic SDK's vertex option.
	wiremodel.AnthropicVertex: "anthropic-vertex:claude-test@20260101",
}

// cloudSecret is what must never come out for api.
var cloudSecret = map[wiremodel.API]string{
	wiremodel.Gemini:           geminiKey,
	wiremodel.Bedrock:          bedrockKey,
	wiremodel.AzureOpenAI:      azureKey,
	wiremodel.AnthropicBedrock: bedrockKey,
	wiremodel.AnthropicVertex:  vertexToken,
}

// wireCloud serves a stand-in for api over the household suite, with
// faults, and points the provider's environment at it.
func wireCloud(t *testing.T, api wiremodel.API, faults ...wiremodel.Fault) *wiremodel.Handler {
	t.Helper()
	h, srv := standIn(t, api, faults)
	none := filepath.Join(t.TempDir(), "none")
	env := map[string]string{
		"MCPEVAL_SPEND": "", "GEMINI_API_KEY": "", "GOOGLE_API_KEY": "", "GOOGLE_GEMINI_BASE_URL": "", "GOOGLE_GENAI_USE_VERTEXAI": "",
		"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "", "AWS_REGION": "", "AWS_DEFAULT_REGION": "",
		"AWS_PROFILE": "", "AWS_CONFIG_FILE": none, "AWS_SHARED_CREDENTIALS_FILE": none, "AWS_EC2_METADATA_DISABLED": "true",
		"AWS_BEARER_TOKEN_BEDROCK": "", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": "",
		"AZURE_OPENAI_ENDPOINT": "", "AZURE_OPENAI_API_KEY": "", "OPENAI_API_VERSION": "",
		"GOOGLE_APPLICATION_CREDENTIALS": none, "ANTHROPIC_VERTEX_PROJECT_ID": "", "GOOGLE_CLOUD_PROJECT": "",
		"CLOUD_ML_REGION": "", "GOOGLE_CLOUD_LOCATION": "", "ANTHROPIC_VERTEX_BASE_URL": "",
	}
	switch api {
	case wiremodel.Gemini:
		h.APIKey = geminiKey
		env["GEMINI_API_KEY"], env["GOOGLE_GEMINI_BASE_URL"] = geminiKey, srv.URL
	case wiremodel.Bedrock, wiremodel.AnthropicBedrock:
		h.APIKey = bedrockKeyID
		env["AWS_ACCESS_KEY_ID"], env["AWS_SECRET_ACCESS_KEY"], env["AWS_REGION"] = bedrockKeyID, bedrockKey, "us-west-2"
		env["AWS_ENDPOINT_URL_BEDROCK_RUNTIME"] = srv.URL
	case wiremodel.AnthropicVertex:
		// Application Default Credentials of a user, whose token endpoint
		// is a stand-in too.
		tok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, vertexToken)
		}))
		t.Cleanup(tok.Close)
		adc := filepath.Join(t.TempDir(), "adc.json")
		os.WriteFile(adc, fmt.Appendf(nil, `{"type":"authorized_user","client_id":"cid","client_secret":"csecret","refresh_token":"rtoken","token_uri":%q}`, tok.URL), 0o600)
		h.APIKey = vertexToken
		env["GOOGLE_APPLICATION_CREDENTIALS"], env["ANTHROPIC_VERTEX_PROJECT_ID"], env["CLOUD_ML_REGION"] = adc, "proj-1", "us-east5"
		env["ANTHROPIC_VERTEX_BASE_URL"] = srv.URL
	case wiremodel.AzureOpenAI:
		h.APIKey = azureKey
		env["AZURE_OPENAI_ENDPOINT"], env["AZURE_OPENAI_API_KEY"] = srv.URL, azureKey
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	return h
}

// sentRight reports what is wrong with a request the stand-in received:
// the model named, and the credentials carried.
func sentRight(api wiremodel.API, spec string, r wiremodel.Request) string {
	name := strings.SplitN(strings.SplitN(spec, ";", 2)[0], ":", 2)[1]
	switch api {
	case wiremodel.Gemini:
		if r.Path != "/v1beta/models/"+name+":generateContent" || r.Header.Get("X-Goog-Api-Key") != geminiKey {
			return fmt.Sprintf("path %s, key sent %v", r.Path, r.Header.Get("X-Goog-Api-Key") != "")
		}
	case wiremodel.Bedrock:
		m := wiremodel.SigV4RE.FindStringSubmatch(r.Header.Get("Authorization"))
		if r.Path != "/model/"+name+"/converse" || m == nil || m[1] != bedrockKeyID || m[3] != "us-west-2" {
			return fmt.Sprintf("path %s, signature %q", r.Path, r.Header.Get("Authorization"))
		}
	case wiremodel.AnthropicBedrock:
		m := wiremodel.SigV4RE.FindStringSubmatch(r.Header.Get("Authorization"))
		if r.Path != "/model/"+name+"/invoke" || m == nil || m[1] != bedrockKeyID || m[3] != "us-west-2" {
			return fmt.Sprintf("path %s, signature %q", r.Path, r.Header.Get("Authorization"))
		}
	case wiremodel.AnthropicVertex:
		if r.Path != "/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/"+name+":rawPredict" || r.Header.Get("Authorization") != "Bearer "+vertexToken {
			return fmt.Sprintf("path %s, token sent %v", r.Path, r.Header.Get("Authorization") != "")
		}
	case wiremodel.AzureOpenAI:
		if r.Path != "/openai/deployments/"+name+"/chat/completions" || r.Header.Get("Api-Key") != azureKey {
			return fmt.Sprintf("path %s, key sent %v", r.Path, r.Header.Get("Api-Key") != "")
		}
	}
	return ""
}

// TestCloudProvidersReachFakePerfectGrades runs the household suite (60
// attempts) through Gemini, Bedrock and Azure OpenAI against stand-ins
// that answer from the key: each reaches exactly fake:perfect's verdicts,
// every turn is one request carrying the model's name and credentials, and
// the fixed prefix is read from the cache.
func TestCloudProvidersReachFakePerfectGrades(t *testing.T) {
	for _, c := range []struct {
		name string
		api  wiremodel.API
		spec string
	}{
		{"gemini", wiremodel.Gemini, cloudSpecs[wiremodel.Gemini]},
		{"gemini-thinking", wiremodel.Gemini, cloudSpecs[wiremodel.Gemini] + ";thinking=1024"},
		{"bedrock", wiremodel.Bedrock, cloudSpecs[wiremodel.Bedrock]},
		{"azure-openai", wiremodel.AzureOpenAI, cloudSpecs[wiremodel.AzureOpenAI]},
		{"anthropic-bedrock", wiremodel.AnthropicBedrock, cloudSpecs[wiremodel.AnthropicBedrock]},
		{"anthropic-vertex", wiremodel.AnthropicVertex, cloudSpecs[wiremodel.AnthropicVertex]},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := wireCloud(t, c.api)
			g, rec := household(t, c.spec, "--spend", "--suite", "household")
			checkCleanRun(t, c.api, c.spec, g, rec, h.Count())
			for _, r := range h.Requests() {
				if why := sentRight(c.api, c.spec, r); why != "" {
					t.Fatalf("request %d: %s", r.N, why)
				}
			}
		})
	}
}

// TestCloudProviderRetryIsNotAGrade: a 429 with retry-after, then a 503,
// cost two recorded retries and nothing else.
func TestCloudProviderRetryIsNotAGrade(t *testing.T) {
	for api, spec := range cloudSpecs {
		t.Run(string(api), func(t *testing.T) {
			h := wireCloud(t, api, wiremodel.Fault{Status: 429, RetryAfter: "0.01"}, wiremodel.Fault{Status: 503, RetryAfterMS: "1"})
			g, rec := household(t, spec, "--spend", "--suite", "household")
			retriedNotGraded(t, h, g, rec, 503)
		})
	}
}

// TestCloudProbe: mcpeval probe sends one request, which the stand-in
// accepts and answers with a call to the probe's tool; without --spend
// nothing is sent.
func TestCloudProbe(t *testing.T) {
	for api, spec := range cloudSpecs {
		t.Run(string(api), func(t *testing.T) {
			h := wireCloud(t, api)
			if _, stderr, code := cli("probe", "--model", spec); code != 2 || !strings.Contains(stderr, "--spend") || h.Count() != 0 {
				t.Fatalf("probe without --spend: exit %d, %d requests, %q", code, h.Count(), stderr)
			}
			stdout, stderr, code := cli("probe", "--model", spec, "--spend")
			if code != 0 || !strings.HasPrefix(stdout, spec+": accepted ") || strings.Contains(stdout, "without calling") || h.Count() != 1 {
				t.Fatalf("exit %d, %d requests\nstdout %q\nstderr %q", code, h.Count(), stdout, stderr)
			}
		})
	}
}

// TestCloudPlantedKeyNeverRecorded: the secret, echoed back by the server
// in a 429's and a 401's body and in a malformed answer, appears nowhere
// in the run directory, nor on stdout or stderr.
func TestCloudPlantedKeyNeverRecorded(t *testing.T) {
	for api, spec := range cloudSpecs {
		t.Run(string(api), func(t *testing.T) {
			secret := cloudSecret[api]
			probe := &wiremodel.Handler{API: api}
			echo := func(status int) string {
				return probe.ErrorJSON(status, "error", fmt.Sprintf("key %s (Authorization: Bearer %s)", secret, secret))
			}
			wireCloud(t, api,
				wiremodel.Fault{Status: 429, RetryAfterMS: "1", Body: echo(429)},
				wiremodel.Fault{Status: 401, Body: echo(401)},
				wiremodel.Fault{Malformed: true, Body: `{"id":"x","key":"` + secret + `","content":[`},
			)
			out := filepath.Join(t.TempDir(), "run")
			stdout, stderr, code := cli("run", "--json", "--quiet", "--model", spec, "--spend", "--suite", "household", "--attempts", "1", "--concurrency", "1", "--out", out)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			rec, err := record.Read(out)
			if err != nil {
				t.Fatal(err)
			}
			checkSecretKept(t, secret, rec, out, stdout, stderr)
		})
	}
}
