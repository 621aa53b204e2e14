variable "aws_home_region" {
  description = "Region of the AWS provider configuration (API calls for global IAM); agents are placed by their own region."
  type        = string
  default     = "us-east-1"
}

variable "gcp_project" {
  description = "GCP project for the GCP agents."
  type        = string
}

variable "kafka_bootstrap" {
  description = "HOST:PORT of the Kafka external listener (TLS + SCRAM-SHA-512), e.g. the LoadBalancer of Strimzi listener \"external\" in k8s/base: kafka.example.net:9094."
  type        = string
}

variable "kafka_username" {
  description = "Kafka SCRAM user of the agents (Strimzi KafkaUser with the agent ACLs)."
  type        = string
  default     = "reed-agent"
}

variable "kafka_ca_certificate_pem" {
  description = "PEM of the Kafka cluster CA (kubectl get secret reed-kafka-cluster-ca-cert -o jsonpath='{.data.ca\\.crt}' | base64 -d). Public."
  type        = string
}

variable "kafka_password_secret_arn" {
  description = "ARN of the AWS Secrets Manager secret holding the Kafka password (SecretString = the password). Reference only."
  type        = string
}

variable "kafka_password_secret_id" {
  description = "GCP Secret Manager secret holding the Kafka password: projects/PROJECT/secrets/NAME. Reference only."
  type        = string
}

variable "agent_distribution_url" {
  description = "HTTPS URL of the landmark agent tarball (reed-landmark-agent.jar + lib/)."
  type        = string
}

variable "agent_distribution_sha256" {
  description = "SHA-256 of the agent tarball."
  type        = string
}

variable "metrics_allowed_cidrs" {
  description = "Networks of the Prometheus servers that scrape the agents; empty = metrics not reachable from outside."
  type        = list(string)
  default     = []
}

variable "do_not_probe_cidrs" {
  description = "Game servers (CIDRs) whose operators asked not to be probed; the agents' hosts drop packets to them."
  type        = list(string)
  default     = []
}
