# 15 landmark agents in 15 regions, 5 in Europe, 5 in North America and 5 in Asia, the landmark
# spread of the REED paper's evaluation (Armitage & Heyde 2011, section 5.1), split over AWS and
# GCP so one provider's backbone does not shape every RTT.

locals {
  agents = {
    # Europe
    "eu-dublin"     = { cloud = "aws", region = "eu-west-1" }
    "eu-frankfurt"  = { cloud = "aws", region = "eu-central-1" }
    "eu-stockholm"  = { cloud = "aws", region = "eu-north-1" }
    "eu-paris"      = { cloud = "gcp", region = "europe-west9" }
    "eu-madrid"     = { cloud = "gcp", region = "europe-southwest1" }
    # North America
    "na-virginia"   = { cloud = "aws", region = "us-east-1" }
    "na-oregon"     = { cloud = "aws", region = "us-west-2" }
    "na-montreal"   = { cloud = "aws", region = "ca-central-1" }
    "na-iowa"       = { cloud = "gcp", region = "us-central1" }
    "na-dallas"     = { cloud = "gcp", region = "us-south1" }
    # Asia
    "as-tokyo"      = { cloud = "aws", region = "ap-northeast-1" }
    "as-singapore"  = { cloud = "aws", region = "ap-southeast-1" }
    "as-mumbai"     = { cloud = "aws", region = "ap-south-1" }
    "as-taiwan"     = { cloud = "gcp", region = "asia-east1" }
    "as-seoul"      = { cloud = "gcp", region = "asia-northeast3" }
  }
}

module "landmark_agents" {
  source = "../../modules/landmark-agent"

  agents                    = local.agents
  kafka_bootstrap           = var.kafka_bootstrap
  kafka_username            = var.kafka_username
  kafka_ca_certificate_pem  = var.kafka_ca_certificate_pem
  kafka_password_secret_arn = var.kafka_password_secret_arn
  kafka_password_secret_id  = var.kafka_password_secret_id
  agent_distribution_url    = var.agent_distribution_url
  agent_distribution_sha256 = var.agent_distribution_sha256
  metrics_allowed_cidrs     = var.metrics_allowed_cidrs
  do_not_probe_cidrs        = var.do_not_probe_cidrs
  gcp_project               = var.gcp_project
  labels = {
    "deployment" = "reed-global"
  }
}
