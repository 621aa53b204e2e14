terraform {
  required_version = ">= 1.6"

  required_providers {
    # AWS provider 6 places each resource in its own region (the "region" argument), so one
    # provider configuration serves agents in every AWS region.
    aws = {
      source  = "hashicorp/aws"
      version = ">= 6.0, < 7.0"
    }
    google = {
      source  = "hashicorp/google"
      version = ">= 6.0, < 8.0"
    }
  }
}
