terraform {
  required_version = ">= 1.6"

  required_providers {
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

# One AWS provider serves every AWS region: the module sets "region" on each resource.
provider "aws" {
  region = var.aws_home_region
}

provider "google" {
  project = var.gcp_project
}
