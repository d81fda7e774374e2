// Package aws provides core functionality for making requests to AWS services.
package aws

// SDKName is the name of this AWS SDK
const SDKName = "aws-sdk-go-v2"

// SDKVersion is the version of this SDK
const SDKVersion = goModuleVersion
