# Where each landmark is, announced by the agent (REED_AGENT_LOCATION, Landmark.location on
# reed.landmarks): the coordinator trusts an operator's location over a geolocation database.
# Cloud regions are known places; the coordinates below are each region's metro area (the
# providers publish the city, not the building), good to a few tens of kilometres, which is well
# under a millisecond of fibre.

variable "region_locations" {
  description = "Extra or corrected region locations, merged over the built-in table of AWS and GCP regions: region name => { latitude, longitude } in degrees (WGS-84). An agent's own latitude/longitude wins over both; a region in neither announces no location."
  type = map(object({
    latitude  = number
    longitude = number
  }))
  default = {}

  validation {
    condition     = alltrue([for r, l in var.region_locations : abs(l.latitude) <= 90 && abs(l.longitude) <= 180])
    error_message = "region_locations: latitude must be in -90..90 and longitude in -180..180 degrees."
  }
}

locals {
  region_locations_builtin = {
    # AWS
    "us-east-1"      = { latitude = 39.04, longitude = -77.49 }  # N. Virginia (Ashburn)
    "us-east-2"      = { latitude = 39.96, longitude = -83.00 }  # Ohio (Columbus)
    "us-west-1"      = { latitude = 37.34, longitude = -121.89 } # N. California (San Jose)
    "us-west-2"      = { latitude = 45.84, longitude = -119.70 } # Oregon (Boardman)
    "ca-central-1"   = { latitude = 45.50, longitude = -73.57 }  # Montreal
    "sa-east-1"      = { latitude = -23.55, longitude = -46.63 } # Sao Paulo
    "eu-west-1"      = { latitude = 53.35, longitude = -6.26 }   # Dublin
    "eu-west-2"      = { latitude = 51.51, longitude = -0.13 }   # London
    "eu-west-3"      = { latitude = 48.86, longitude = 2.35 }    # Paris
    "eu-central-1"   = { latitude = 50.11, longitude = 8.68 }    # Frankfurt
    "eu-central-2"   = { latitude = 47.38, longitude = 8.54 }    # Zurich
    "eu-north-1"     = { latitude = 59.33, longitude = 18.07 }   # Stockholm
    "eu-south-1"     = { latitude = 45.46, longitude = 9.19 }    # Milan
    "eu-south-2"     = { latitude = 41.65, longitude = -0.88 }   # Spain (Zaragoza)
    "ap-northeast-1" = { latitude = 35.68, longitude = 139.69 }  # Tokyo
    "ap-northeast-2" = { latitude = 37.57, longitude = 126.98 }  # Seoul
    "ap-northeast-3" = { latitude = 34.69, longitude = 135.50 }  # Osaka
    "ap-southeast-1" = { latitude = 1.35, longitude = 103.82 }   # Singapore
    "ap-southeast-2" = { latitude = -33.87, longitude = 151.21 } # Sydney
    "ap-south-1"     = { latitude = 19.08, longitude = 72.88 }   # Mumbai
    "ap-east-1"      = { latitude = 22.32, longitude = 114.17 }  # Hong Kong
    "me-south-1"     = { latitude = 26.07, longitude = 50.56 }   # Bahrain
    "af-south-1"     = { latitude = -33.92, longitude = 18.42 }  # Cape Town
    # GCP
    "us-east1"                = { latitude = 33.20, longitude = -80.01 }  # Moncks Corner, South Carolina
    "us-east4"                = { latitude = 39.04, longitude = -77.49 }  # Ashburn, Virginia
    "us-central1"             = { latitude = 41.26, longitude = -95.86 }  # Council Bluffs, Iowa
    "us-south1"               = { latitude = 32.78, longitude = -96.80 }  # Dallas
    "us-west1"                = { latitude = 45.59, longitude = -121.18 } # The Dalles, Oregon
    "us-west2"                = { latitude = 34.05, longitude = -118.24 } # Los Angeles
    "us-west4"                = { latitude = 36.17, longitude = -115.14 } # Las Vegas
    "northamerica-northeast1" = { latitude = 45.50, longitude = -73.57 }  # Montreal
    "northamerica-northeast2" = { latitude = 43.65, longitude = -79.38 }  # Toronto
    "southamerica-east1"      = { latitude = -23.53, longitude = -46.79 } # Sao Paulo (Osasco)
    "europe-west1"            = { latitude = 50.45, longitude = 3.82 }    # St. Ghislain, Belgium
    "europe-west2"            = { latitude = 51.51, longitude = -0.13 }   # London
    "europe-west3"            = { latitude = 50.11, longitude = 8.68 }    # Frankfurt
    "europe-west4"            = { latitude = 53.44, longitude = 6.83 }    # Eemshaven, Netherlands
    "europe-west6"            = { latitude = 47.38, longitude = 8.54 }    # Zurich
    "europe-west9"            = { latitude = 48.86, longitude = 2.35 }    # Paris
    "europe-north1"           = { latitude = 60.57, longitude = 27.20 }   # Hamina, Finland
    "europe-southwest1"       = { latitude = 40.42, longitude = -3.70 }   # Madrid
    "europe-central2"         = { latitude = 52.23, longitude = 21.01 }   # Warsaw
    "asia-east1"              = { latitude = 24.05, longitude = 120.52 }  # Changhua County, Taiwan
    "asia-east2"              = { latitude = 22.32, longitude = 114.17 }  # Hong Kong
    "asia-northeast1"         = { latitude = 35.68, longitude = 139.69 }  # Tokyo
    "asia-northeast3"         = { latitude = 37.57, longitude = 126.98 }  # Seoul
    "asia-south1"             = { latitude = 19.08, longitude = 72.88 }   # Mumbai
    "asia-southeast1"         = { latitude = 1.34, longitude = 103.71 }   # Jurong West, Singapore
    "australia-southeast1"    = { latitude = -33.87, longitude = 151.21 } # Sydney
  }

  region_locations = merge(local.region_locations_builtin, var.region_locations)

  # "LAT,LON" (the agent's --location) or "" (not stated: the agent announces none).
  agent_locations = {
    for id, a in var.agents : id => (a.latitude != null
      ? "${a.latitude},${a.longitude}"
      : try("${local.region_locations[a.region].latitude},${local.region_locations[a.region].longitude}", "")
    )
  }
}
