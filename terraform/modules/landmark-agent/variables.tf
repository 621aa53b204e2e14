variable "name_prefix" {
  description = "Prefix of every resource name (security groups, roles, instances)."
  type        = string
  default     = "reed"

  # <= 14 characters: "<prefix>-landmark-agent" must fit a GCP service account id (30), and
  # "<prefix>-agent-<id>" a GCP instance name (63) with ids of up to 41 characters.
  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,13}$", var.name_prefix))
    error_message = "name_prefix: 2-14 lowercase letters, digits and dashes, starting with a letter."
  }
}

variable "agents" {
  description = <<-EOT
    The landmark agents, one VM each, keyed by agent id (also REED_AGENT_ID and the VM name).
    cloud = "aws" or "gcp"; region = the cloud's region name (eu-west-1, europe-west1, ...);
    zone = GCP zone (default: region-b); instance_type = override of the default size;
    latitude, longitude = where the VM is, in degrees (default: its region's, see region_locations).
  EOT
  type = map(object({
    cloud         = string
    region        = string
    zone          = optional(string)
    instance_type = optional(string)
    latitude      = optional(number)
    longitude     = optional(number)
  }))

  validation {
    condition     = alltrue([for id, a in var.agents : contains(["aws", "gcp"], a.cloud)])
    error_message = "agents[*].cloud must be \"aws\" or \"gcp\"."
  }
  validation {
    condition     = alltrue([for id, a in var.agents : can(regex("^[a-z][a-z0-9-]{1,40}$", id))])
    error_message = "Agent ids: lowercase letters, digits and dashes (they name VMs and Kafka keys)."
  }
  validation {
    # coalesce: Terraform before 1.12 evaluates both sides of && and ||, and a comparison with null fails
    condition = alltrue([for id, a in var.agents : (a.latitude == null) == (a.longitude == null)
      && abs(coalesce(a.latitude, 0)) <= 90 && abs(coalesce(a.longitude, 0)) <= 180])
    error_message = "agents[*]: latitude and longitude go together, latitude in -90..90 and longitude in -180..180 degrees."
  }
}

variable "kafka_bootstrap" {
  description = "Kafka bootstrap address for agents, HOST:PORT of the external TLS + SCRAM-SHA-512 listener (Strimzi listener \"external\", port 9094 in k8s/base)."
  type        = string

  validation {
    condition     = can(regex("^[A-Za-z0-9.-]+:[0-9]{1,5}$", var.kafka_bootstrap))
    error_message = "kafka_bootstrap must be HOST:PORT."
  }
}

variable "kafka_username" {
  description = "SCRAM-SHA-512 user of the agents (a Strimzi KafkaUser with the agent ACLs, k8s/base/kafka/kafkausers.yaml)."
  type        = string
  default     = "reed-agent"
}

variable "kafka_ca_certificate_pem" {
  description = "PEM of the CA that signed the Kafka listener certificate (Strimzi: Secret reed-kafka-cluster-ca-cert, key ca.crt). Public, not a secret."
  type        = string

  validation {
    condition     = can(regex("-----BEGIN CERTIFICATE-----", var.kafka_ca_certificate_pem))
    error_message = "kafka_ca_certificate_pem must be a PEM certificate."
  }
}

variable "kafka_password_secret_arn" {
  description = "ARN of the AWS Secrets Manager secret whose SecretString is the agents' Kafka SCRAM password. A reference only: the password never passes through Terraform. Required when any agent is on AWS."
  type        = string
  default     = null
}

variable "kafka_password_secret_id" {
  description = "GCP Secret Manager secret holding the agents' Kafka SCRAM password, as projects/PROJECT/secrets/NAME. A reference only. Required when any agent is on GCP."
  type        = string
  default     = null

  validation {
    condition     = var.kafka_password_secret_id == null || can(regex("^projects/[^/]+/secrets/[^/]+$", var.kafka_password_secret_id))
    error_message = "kafka_password_secret_id must look like projects/PROJECT/secrets/NAME."
  }
}

variable "agent_distribution_url" {
  description = "HTTPS URL of the landmark agent tarball (reed-landmark-agent.jar + lib/, see terraform/README.md) the VMs install."
  type        = string

  validation {
    condition     = startswith(var.agent_distribution_url, "https://")
    error_message = "agent_distribution_url must be an https:// URL."
  }
}

variable "agent_distribution_sha256" {
  description = "SHA-256 of the agent tarball; cloud-init refuses a download that does not match."
  type        = string

  validation {
    condition     = can(regex("^[0-9a-f]{64}$", var.agent_distribution_sha256))
    error_message = "agent_distribution_sha256 must be 64 lowercase hex digits."
  }
}

variable "beacon_port" {
  description = "UDP port of the agent's calibration beacon (A2S_INFO and Quake3 getinfo); open to beacon_allowed_cidrs."
  type        = number
  default     = 27960
}

variable "beacon_allowed_cidrs" {
  description = "Who may query the beacon: server browsers calibrate against it from anywhere, other agents probe it every round."
  type        = list(string)
  default     = ["0.0.0.0/0"]
}

variable "ws_beacon_port" {
  description = "TCP port of the agent's WebSocket beacon for web pages, announced as ws://PUBLIC_IP:PORT/ on reed.landmarks; open to ws_beacon_allowed_cidrs."
  type        = number
  default     = 27961
}

variable "ws_beacon_allowed_cidrs" {
  description = "Who may open the WebSocket beacon: browsers running the discovery page, from anywhere. Empty: the port stays closed and web pages cannot calibrate against these agents."
  type        = list(string)
  default     = ["0.0.0.0/0"]
}

variable "metrics_port" {
  description = "TCP port of the agent's Prometheus /metrics and /healthz."
  type        = number
  default     = 9465
}

variable "metrics_allowed_cidrs" {
  description = "Networks allowed to scrape metrics (your Prometheus). Empty: metrics are not reachable from outside the VM."
  type        = list(string)
  default     = []
}

variable "do_not_probe_cidrs" {
  description = "Addresses (CIDRs) the agents must never send to: game servers whose operators asked not to be probed. Enforced on each VM by systemd (IPAddressDeny on the agent's unit) until the catalog has a deny-list; docs/operations.md runbook."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for c in var.do_not_probe_cidrs : can(cidrhost(c, 0))])
    error_message = "do_not_probe_cidrs: each entry must be a CIDR such as 203.0.113.5/32."
  }
}

variable "probe_interval" {
  description = "Round interval (REED_AGENT_INTERVAL). The paper's landmarks measure every five minutes."
  type        = string
  default     = "5m"
}

variable "probe_rate" {
  description = "Probes per second (REED_AGENT_RATE), the global pacing budget of one agent."
  type        = number
  default     = 140
}

variable "aws_instance_type" {
  description = "Default EC2 instance type of AWS agents."
  type        = string
  default     = "t3.small"
}

variable "gcp_machine_type" {
  description = "Default machine type of GCP agents."
  type        = string
  default     = "e2-small"
}

variable "gcp_project" {
  description = "GCP project of the GCP agents (null: the google provider's project)."
  type        = string
  default     = null
}

variable "gcp_network" {
  description = "VPC network of the GCP agents."
  type        = string
  default     = "default"
}

variable "labels" {
  description = "Extra tags (AWS) / labels (GCP) on every resource."
  type        = map(string)
  default     = {}
}
