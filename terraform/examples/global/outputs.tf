output "agents" {
  description = "Each agent's cloud, region, public IP and beacon address, keyed by agent id."
  value       = module.landmark_agents.agents
}

output "beacon_addresses" {
  description = "All 15 beacon addresses (HOST:PORT): put them in monitoring, and expect them on reed.landmarks."
  value       = module.landmark_agents.beacon_addresses
}
