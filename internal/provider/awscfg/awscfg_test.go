package awscfg

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

func TestRegion(t *testing.T) {
	for _, ok := range []string{"us-east-1", "eu-west-3"} {
		if err := Region(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "us-east-1/x", "https://x", "a?b", "a#b"} {
		if err := Region(bad); err == nil || !strings.Contains(err.Error(), "want an AWS region such as us-east-1") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestLoadGivenCredentials(t *testing.T) {
	creds := credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")
	cfg, err := Load("bedrock:m", aws.Config{Credentials: creds, Region: "us-west-2"}, "")
	if err != nil || cfg.Region != "us-west-2" {
		t.Errorf("configured region: %q, %v", cfg.Region, err)
	}
	cfg, err = Load("bedrock:m", aws.Config{Credentials: creds, Region: "us-west-2"}, "eu-central-1")
	if err != nil || cfg.Region != "eu-central-1" {
		t.Errorf("the region option must win: %q, %v", cfg.Region, err)
	}
	_, err = Load("bedrock:m", aws.Config{Credentials: creds}, "")
	if err == nil || err.Error() != `model spec "bedrock:m": no AWS region: set AWS_REGION, or the region= option` {
		t.Errorf("no region: %v", err)
	}
}
