//! The name tables and limits that Python needs as well, defined here once and handed to
//! Python as one JSON document (`airtcp._core.tables()`): the PHY modes and each standard's
//! modes, the congestion controls, loss recoveries and rate controls, and the core's bounds.

use serde_json::{json, Value};

use crate::phy::{ModeId, Modulation, Standard};

/// Every table, as JSON.
pub fn tables() -> Value {
    let modes: Vec<Value> = ModeId::all()
        .map(|m| {
            let kind = match m.modulation() {
                Modulation::Dsss { .. } => "dsss",
                Modulation::Ofdm { erp: false, .. } => "ofdm",
                Modulation::Ofdm { erp: true, .. } => "erp-ofdm",
                Modulation::Ht { .. } => "ht",
                Modulation::Vht(_) => "vht",
                Modulation::He(_) => "he",
            };
            let mut v = json!({
                "index": m.0,
                "name": m.name(),
                "modulation": kind,
                "rate_kbps": m.rate_kbps(),
            });
            if let Modulation::Ht { mcs, width40, sgi } = m.modulation() {
                v["mcs"] = json!(mcs);
                v["channel_width_mhz"] = json!(if width40 { 40 } else { 20 });
                v["short_gi"] = json!(sgi);
            }
            if let Modulation::Vht(x) = m.modulation() {
                v["mcs"] = json!(x.mcs);
                v["channel_width_mhz"] = json!(x.width_mhz);
                v["streams"] = json!(x.nss);
                v["short_gi"] = json!(x.sgi);
            }
            if let Modulation::He(x) = m.modulation() {
                v["mcs"] = json!(x.mcs);
                v["channel_width_mhz"] = json!(x.width_mhz);
                v["streams"] = json!(x.nss);
                v["gi_ns"] = json!(x.gi_ns);
            }
            v
        })
        .collect();
    let standards: serde_json::Map<String, Value> = [Standard::A, Standard::B, Standard::G]
        .iter()
        .map(|s| (s.name().to_string(), json!(s.modes().iter().map(|m| m.0).collect::<Vec<_>>())))
        .collect();
    json!({
        "phy_modes": modes,
        "standard_modes": standards,
        "congestion_controls": crate::tcp::cc::NAMES,
        "recoveries": crate::tcp::conn::RECOVERY_NAMES,
        "rate_controls": crate::mac::rate::NAMES,
        "limits": {
            "max_msdu_bytes": crate::mac::frame::MAX_MSDU_BYTES,
            "max_udp_payload_bytes": crate::spec::MAX_UDP_PAYLOAD_BYTES,
            "max_queue_packets": crate::spec::MAX_QUEUE_PACKETS,
            "max_report_intervals": crate::spec::MAX_REPORT_INTERVALS,
            "max_file_bytes": crate::spec::MAX_FILE_BYTES,
            "max_initial_cwnd": crate::spec::MAX_INITIAL_CWND,
            "max_retry_limit": crate::spec::MAX_RETRY_LIMIT,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_name_every_mode_once_and_every_standard_by_index() {
        let t = tables();
        let modes = t["phy_modes"].as_array().unwrap();
        // 84 non-HT and HT modes, 310 VHT (320 less the standard's 10 holes), 576 HE.
        assert_eq!(modes.len(), 84 + 310 + 576);
        assert_eq!(modes.len(), ModeId::all().count());
        assert_eq!(modes[3]["name"], "DsssRate11Mbps");
        assert_eq!(t["standard_modes"]["80211b"], json!([0, 1, 2, 3]));
        assert_eq!(t["recoveries"], json!(["tahoe", "reno", "newreno", "sack"]));
        assert_eq!(
            t["rate_controls"],
            json!([
                "constant",
                "arf",
                "arf-ns3",
                "aarf",
                "minstrel",
                "minstrel-rt2800",
                "minstrel-ht",
                "ath9k",
                "agent"
            ])
        );
    }
}
