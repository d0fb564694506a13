// Package bedrock is the model.Model for models on Amazon Bedrock, through
// the Converse API of the official aws-sdk-go-v2 client
// (service/bedrockruntime). Requests are signed with SigV4 using the
// standard AWS credential chain and region (environment, shared config and
// credentials files, SSO, roles, instance metadata).
//
// A model spec "bedrock:MODEL_ID;k=v;…" (MODEL_ID a model or inference
// profile id such as us.anthropic.claude-sonnet-4-5-20250929-v1:0) accepts
// these options and no others:
//
//	max_tokens   sent as inferenceConfig.maxTokens; default 8192
//	temperature  0 to 1
//	top_p        0 to 1
//	region       the AWS region, instead of AWS_REGION and the profile's
//	cache        true or false: mark the system prompt and the tools with
//	             cache points; default true for Anthropic and Amazon Nova
//	             models, which accept them
//
// Tool names are mapped by package toolname and mapped back. A tool result
// goes back as a toolResult block, with status "error" for an error result.
// Reasoning blocks go back exactly as they came, signatures included. The
// SDK's own retries are off: a refused request is sent again by package
// retry. The secret access key and session token never reach an error.
package bedrock
