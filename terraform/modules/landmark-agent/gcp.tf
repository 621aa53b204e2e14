# GCP agents: one Compute Engine VM per agent in its region, Ubuntu 24.04 LTS (cloud-init and
# OpenJDK 21 in its archive), a static external IP for the beacon, a dedicated service account
# that may read only the Kafka password secret, OS Login instead of SSH keys.

resource "google_service_account" "agent" {
  count        = length(local.gcp_agents) > 0 ? 1 : 0
  project      = var.gcp_project
  account_id   = "${var.name_prefix}-landmark-agent"
  display_name = "reed landmark agents"
}

resource "google_secret_manager_secret_iam_member" "read_kafka_secret" {
  count     = length(local.gcp_agents) > 0 ? 1 : 0
  secret_id = coalesce(var.kafka_password_secret_id, "projects/unset/secrets/unset")
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${google_service_account.agent[0].email}"

  lifecycle {
    precondition {
      condition     = var.kafka_password_secret_id != null
      error_message = "Agents on GCP need kafka_password_secret_id (the Secret Manager secret with the Kafka password)."
    }
  }
}

resource "google_compute_firewall" "beacon" {
  count                   = length(local.gcp_agents) > 0 ? 1 : 0
  project                 = var.gcp_project
  name                    = "${var.name_prefix}-agent-beacon"
  network                 = var.gcp_network
  direction               = "INGRESS"
  description             = "reed calibration beacon (A2S_INFO, Quake3 getinfo)"
  source_ranges           = var.beacon_allowed_cidrs
  target_service_accounts = [google_service_account.agent[0].email]

  allow {
    protocol = "udp"
    ports    = [tostring(var.beacon_port)]
  }
}

# The WebSocket beacon (TCP) web pages calibrate against, open like the UDP beacon.
resource "google_compute_firewall" "ws_beacon" {
  count                   = length(local.gcp_agents) > 0 && length(var.ws_beacon_allowed_cidrs) > 0 ? 1 : 0
  project                 = var.gcp_project
  name                    = "${var.name_prefix}-agent-ws-beacon"
  network                 = var.gcp_network
  direction               = "INGRESS"
  description             = "reed WebSocket beacon for web pages"
  source_ranges           = var.ws_beacon_allowed_cidrs
  target_service_accounts = [google_service_account.agent[0].email]

  allow {
    protocol = "tcp"
    ports    = [tostring(var.ws_beacon_port)]
  }
}

resource "google_compute_firewall" "metrics" {
  count                   = length(local.gcp_agents) > 0 && length(var.metrics_allowed_cidrs) > 0 ? 1 : 0
  project                 = var.gcp_project
  name                    = "${var.name_prefix}-agent-metrics"
  network                 = var.gcp_network
  direction               = "INGRESS"
  description             = "Prometheus /metrics and /healthz"
  source_ranges           = var.metrics_allowed_cidrs
  target_service_accounts = [google_service_account.agent[0].email]

  allow {
    protocol = "tcp"
    ports    = [tostring(var.metrics_port)]
  }
}

# Explicit egress (networks with a default-deny egress rule at lower priority stay working).
resource "google_compute_firewall" "egress" {
  count                   = length(local.gcp_agents) > 0 ? 1 : 0
  project                 = var.gcp_project
  name                    = "${var.name_prefix}-agent-egress"
  network                 = var.gcp_network
  direction               = "EGRESS"
  priority                = 900
  description             = "reed agent probes (UDP), Kafka, HTTPS"
  destination_ranges      = ["0.0.0.0/0"]
  target_service_accounts = [google_service_account.agent[0].email]

  allow {
    protocol = "udp"
  }
  allow {
    protocol = "tcp"
    ports    = [tostring(local.kafka_port), "443"]
  }
}

resource "google_compute_address" "agent" {
  for_each = local.gcp_agents
  project  = var.gcp_project
  name     = "${var.name_prefix}-agent-${each.key}"
  region   = each.value.region
}

resource "google_compute_instance" "agent" {
  for_each     = local.gcp_agents
  project      = var.gcp_project
  name         = "${var.name_prefix}-agent-${each.key}"
  zone         = coalesce(each.value.zone, "${each.value.region}-b")
  machine_type = coalesce(each.value.instance_type, var.gcp_machine_type)
  labels       = merge(local.common_labels, { "reed-agent-id" = each.key })

  boot_disk {
    initialize_params {
      image = "ubuntu-os-cloud/ubuntu-2404-lts-amd64"
      size  = 16
    }
  }

  network_interface {
    network = var.gcp_network
    access_config {
      nat_ip = google_compute_address.agent[each.key].address
    }
  }

  metadata = {
    user-data              = local.cloud_init[each.key]
    enable-oslogin         = "TRUE"
    block-project-ssh-keys = "TRUE"
  }

  service_account {
    email  = google_service_account.agent[0].email
    scopes = ["cloud-platform"]
  }

  shielded_instance_config {
    enable_secure_boot          = true
    enable_vtpm                 = true
    enable_integrity_monitoring = true
  }

  depends_on = [google_secret_manager_secret_iam_member.read_kafka_secret]
}
