//! TCP profiles (`flows.i.tcp.profile`): the sender and receiver rules of a Linux kernel as one
//! name. A profile fills every field of its bundle the flow's `tcp` table leaves out; a field
//! written there overrides it (and shows in the summary's `tcp.effective`). "rfc" fills
//! nothing: every field keeps its default, the behaviour before profiles existed.
//!
//! Applied to the JSON world spec before it is read (`apply`), so a spec's `tcp` table reads
//! as the profile's values with the written fields over them; the schema carries each
//! profile's table (`x-profiles` on the `profile` property) for the scenario layer, the
//! canonical form and the docs.

use serde_json::{json, Map, Value};

crate::names::names! {
    /// A kernel's TCP as one name.
    #[derive(Default)]
    pub enum TcpProfile {
        /// No bundle: every field at its default (RFC rules where Linux differs).
        #[default]
        Rfc = "rfc",
        /// Linux 3.2 (paper 002's ath9k test bed).
        Linux32 = "linux-3.2",
        /// Linux 3.12 (paper 000's Raspberry Pis).
        Linux312 = "linux-3.12",
        /// Linux 6.x.
        Linux6 = "linux-6",
    }
}

/// One setting of a profile: the `tcp` field, its value in each of linux-3.2, linux-3.12 and
/// linux-6, and the kernel source it follows.
pub struct Setting {
    pub field: &'static str,
    pub values: [fn() -> Value; 3],
    pub source: &'static str,
}

macro_rules! setting {
    ($field:literal, [$a:expr, $b:expr, $c:expr], $source:literal) => {
        Setting { field: $field, values: [|| json!($a), || json!($b), || json!($c)], source: $source }
    };
}

/// Every setting of the Linux profiles, in the docs' order.
pub const SETTINGS: &[Setting] = &[
    setting!("cc", ["cubic", "cubic", "cubic"], "the default congestion control since 2.6.19 (CONFIG_DEFAULT_TCP_CONG)"),
    setting!("recovery", ["sack", "sack", "sack"], "net.ipv4.tcp_sack = 1 (RFC 2018 SACK, tcp_sacktag_write_queue)"),
    setting!("min_rto_ms", [200.0, 200.0, 200.0], "TCP_RTO_MIN = HZ / 5 (include/net/tcp.h)"),
    setting!("max_rto_ms", [120000.0, 120000.0, 120000.0], "TCP_RTO_MAX = 120 HZ"),
    setting!("initial_rto_ms", [1000.0, 1000.0, 1000.0], "TCP_TIMEOUT_INIT = 1 s since 3.1 (RFC 6298)"),
    setting!("initial_cwnd", [10, 10, 10], "TCP_INIT_CWND = 10 since 2.6.39 (RFC 6928)"),
    setting!("delack_timeout_ms", [40.0, 40.0, 40.0], "TCP_DELACK_MIN = HZ / 25"),
    setting!("timestamps", [true, true, true], "net.ipv4.tcp_timestamps = 1"),
    setting!("rto_estimator", ["linux", "linux", "linux"], "tcp_rtt_estimator and tcp_set_rto (RTO = SRTT + max(TCP_RTO_MIN, mdev))"),
    setting!("ack_counting", ["acks", "acks", "segments"], "tcp_slow_start and tcp_cong_avoid_ai count ACKs up to 3.17 / 4.0, acked segments since 3.18 / 4.1"),
    setting!("cwnd_limited", ["linux-3", "linux-3", "linux-4"], "tcp_is_cwnd_limited(sk, in_flight) in 3.x; max_packets_out and is_cwnd_limited from 3.16 (tcp_cwnd_validate)"),
    setting!("small_queues", [false, true, true], "TCP Small Queues since 3.6 (tcp_small_queue_check, tcp_wfree)"),
    setting!("limit_output_bytes", [131072, 131072, 1048576], "sysctl_tcp_limit_output_bytes: 128 KiB from 3.6 (3.2 has no TSQ), 256 KiB from 4.2, 16 x 64 KiB from 5.0 (tcp_sk_init; 4 MiB in 2025's kernels)"),
    setting!("tsq_rule", ["linux-3.19", "linux-3.12", "linux-3.19"], "tcp_write_xmit 3.12-3.18: limit = max(tcp_limit_output_bytes, sk_pacing_rate >> 10); tcp_small_queue_check 3.19+: min(max(2 truesize, sk_pacing_rate >> 10), tcp_limit_output_bytes) (3.2 has no TSQ)"),
    setting!("wifi_pacing_shift", [10, 10, 7], "sk_pacing_shift: 10 in TCP (3.12+); mac80211's tx_sk_pacing_shift on local TCP sockets, 8 in 4.16-4.19 and 7 from 4.20 (ieee80211_alloc_hw_nm, sk_pacing_shift_update in ieee80211_subif_start_xmit)"),
    setting!("timer_rounding", ["linux-4.14", "linux-4.14", "linux-6.6"], "tcp_schedule_loss_probe and tcp_rack_mark_lost: usecs_to_jiffies(t) + TCP_TIMEOUT_MIN to 6.5, usecs_to_jiffies(t + TCP_TIMEOUT_MIN_US) from 6.6 (3.x has neither timer; its probe takes msecs_to_jiffies(10) as a floor)"),
    setting!("rtt_clock", ["jiffies", "jiffies", "us"], "tcp_time_stamp (jiffies) in 3.x's tcp_rtt_estimator; srtt_us from 3.15; with tcp.clock_hz only (HZ is a build option)"),
    setting!("rto_rearm", ["head-retransmit", "head-retransmit", "head-retransmit"], "tcp_xmit_retransmit_queue: resending the write queue's head resets ICSK_TIME_RETRANS to icsk_rto (6.x: unless the reordering timer runs)"),
    setting!("local_congestion", ["cwr", "cwr", "cwr"], "tcp_transmit_skb: NET_XMIT_DROP keeps the segment and calls tcp_enter_cwr"),
    setting!("rto_recovery", ["linux", "linux", "linux"], "tcp_enter_loss and tcp_process_loss: the scoreboard kept, one ssthresh cut per window"),
    setting!("cwnd_credit", ["acked", "acked", "delivered"], "tcp_cong_control(sk, ack, delivered - prior_delivered) since 4.9; 3.x grows per ACK"),
    setting!("rack", [false, false, true], "RACK since 4.4 (tcp_rack_mark_lost), the only loss detection with SACK since 4.18 (net.ipv4.tcp_recovery = 1)"),
    setting!("tlp", [false, true, true], "Tail Loss Probe since 3.10 (tcp_schedule_loss_probe, net.ipv4.tcp_early_retrans = 3)"),
    setting!("tlp_rule", ["linux-3.10", "linux-3.10", "rfc8985"], "tcp_schedule_loss_probe: max(2 SRTT, 10 ms) in Open only, 3.10-4.13 (3.2 has no TLP); 2 SRTT + TCP_TIMEOUT_MIN in Open or CWR from 4.14 (RFC 8985 7.2)"),
    setting!("lost_retransmit", ["every", "every", "every"], "tcp_mark_lost_retrans (2.6.25-4.3); RACK finds them in 4.4+"),
    setting!("early_retransmit", [false, true, false], "RFC 5827 with a quarter-SRTT delay, 3.6-4.10 (tcp_pause_early_retransmit, net.ipv4.tcp_early_retrans = 2, 3 from 3.10); RACK took its place"),
    setting!("frto", [false, true, true], "RFC 5682 SACK-enhanced F-RTO in tcp_process_loss since 3.10 (net.ipv4.tcp_frto = 2); 3.2's older F-RTO is not modelled"),
    setting!("prr", ["recovery", "recovery-and-cwr", "recovery-and-cwr"], "RFC 6937 in recovery since 3.2 (tcp_update_cwnd_in_recovery), in CWR since 3.10 (tcp_cwnd_reduction)"),
    setting!("sack_compress", [false, false, true], "compressed SACK in __tcp_ack_snd_check since 4.19 (net.ipv4.tcp_comp_sack_delay_ns = 1 ms, tcp_comp_sack_nr = 44), only after DupThresh duplicate ACKs at one rcv_nxt in 6.x (tp->dup_ack_counter)"),
    setting!("rcv_window", ["linux-3.2", "linux-3.12", "linux-6"], "tcp_select_initial_window (10 segments in 3.x, 64 KiB in 6.x), tcp_grow_window (2 MSS per segment, an immediate ACK each time), tcp_rcv_space_adjust (the clamp per receiver RTT)"),
    setting!("quickack", ["first-data-and-out-of-order", "first-data-and-out-of-order", "first-data"], "tcp_incr_quickack from the first data segment (tcp_event_data_recv), tcp_enter_quickack_mode on old data (tcp_data_queue) and, before 4.18, on out-of-order data"),
];

impl TcpProfile {
    /// The profile's settings as a `tcp` table ("rfc": empty).
    pub fn table(self) -> Map<String, Value> {
        let column = match self {
            TcpProfile::Rfc => return Map::new(),
            TcpProfile::Linux32 => 0,
            TcpProfile::Linux312 => 1,
            TcpProfile::Linux6 => 2,
        };
        SETTINGS.iter().map(|s| (s.field.to_owned(), (s.values[column])())).collect()
    }
}

/// Every profile's table, by name, as the schema's `x-profiles` holds it.
pub fn tables() -> Value {
    Value::Object(
        <TcpProfile as crate::names::Named>::ALL
            .iter()
            .map(|&p| (p.to_string(), Value::Object(p.table())))
            .collect(),
    )
}

/// The kernel source each setting follows, by field, as the schema's `x-profile-sources`
/// holds it.
pub fn sources() -> Value {
    Value::Object(SETTINGS.iter().map(|s| (s.field.to_owned(), json!(s.source))).collect())
}

/// Fill each flow's `tcp` table from its profile: every field of the profile the table leaves
/// out. A bad profile name is left for the typed read to refuse with the allowed names.
pub fn apply(spec: &mut Value) {
    let Some(flows) = spec.get_mut("flows").and_then(Value::as_array_mut) else { return };
    for flow in flows {
        let Some(tcp) = flow.get_mut("tcp").and_then(Value::as_object_mut) else { continue };
        let Some(profile) = tcp.get("profile").and_then(Value::as_str).and_then(TcpProfile::from_name) else {
            continue;
        };
        for (field, value) in profile.table() {
            tcp.entry(field).or_insert(value);
        }
    }
}

/// A TCP profile as a flow ran it (the summary's `tcp.effective`).
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct TcpEffective {
    /// The profile's name (`tcp.profile`).
    pub profile: String,
    /// Each field of the profile's bundle the flow's `tcp` table set to another value, with
    /// the value it ran with; absent when none.
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub overrides: Map<String, Value>,
}

/// The fields of `tcp` that differ from its profile's values ("rfc": none), as the summary
/// reports them.
pub fn overrides(tcp: &super::TcpSpec) -> Map<String, Value> {
    let written = serde_json::to_value(tcp).expect("a tcp table serialises");
    tcp.profile
        .table()
        .into_iter()
        .filter(|(field, value)| written.get(field) != Some(value))
        .map(|(field, _)| {
            let v = written[&field].clone();
            (field, v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_is_a_tcp_field_and_every_profile_reads() {
        let schema = crate::spec::schema();
        let props = &schema["$defs"]["TcpSpec"]["properties"];
        for s in SETTINGS {
            assert!(props.get(s.field).is_some(), "{}: not a TcpSpec field", s.field);
        }
        for &p in <TcpProfile as crate::names::Named>::ALL {
            let mut table = p.table();
            table.insert("profile".into(), json!(p.to_string()));
            let spec: super::super::TcpSpec = serde_json::from_value(Value::Object(table)).expect("reads");
            assert!(overrides(&spec).is_empty(), "{p}");
        }
        // "rfc" is the defaults: no bundle.
        assert!(TcpProfile::Rfc.table().is_empty());
    }

    #[test]
    fn a_profile_fills_what_is_left_out_and_a_written_field_overrides_it() {
        let mut spec = json!({"flows": [
            {"tcp": {"profile": "linux-6", "prr": "off"}},
            {"tcp": {"profile": "rfc"}},
            {"tcp": {"prr": "recovery"}},
            {"kind": "udp_cbr"},
        ]});
        apply(&mut spec);
        let f = &spec["flows"];
        assert_eq!(
            (f[0]["tcp"]["prr"].clone(), f[0]["tcp"]["cwnd_credit"].clone()),
            (json!("off"), json!("delivered"))
        );
        assert_eq!(f[0]["tcp"]["small_queues"], json!(true));
        assert_eq!(f[1]["tcp"], json!({"profile": "rfc"}));
        assert_eq!(f[2]["tcp"], json!({"prr": "recovery"}));
        let t: super::super::TcpSpec = serde_json::from_value(f[0]["tcp"].clone()).unwrap();
        assert_eq!(Value::Object(overrides(&t)), json!({"prr": "off"}));
    }

    #[test]
    fn the_kernels_differ_where_their_sources_say() {
        let (a, b, c) =
            (TcpProfile::Linux32.table(), TcpProfile::Linux312.table(), TcpProfile::Linux6.table());
        // TSQ arrived in 3.6, PRR in CWR in 3.10, counting acked segments in 3.18/4.1,
        // tcp_cong_control's delivered count in 4.9.
        assert_eq!((a["small_queues"].clone(), b["small_queues"].clone()), (json!(false), json!(true)));
        assert_eq!((a["prr"].clone(), b["prr"].clone()), (json!("recovery"), json!("recovery-and-cwr")));
        assert_eq!(
            (b["ack_counting"].clone(), c["ack_counting"].clone()),
            (json!("acks"), json!("segments"))
        );
        assert_eq!(
            (b["cwnd_credit"].clone(), c["cwnd_credit"].clone()),
            (json!("acked"), json!("delivered"))
        );
        // 3.2 and 3.12's tcp_data_queue enter quick-ack mode on out-of-order data; 6.x's does
        // not (tcp_data_queue_ofo alone).
        assert_eq!(a["quickack"], json!("first-data-and-out-of-order"));
        assert_eq!(
            (b["quickack"].clone(), c["quickack"].clone()),
            (json!("first-data-and-out-of-order"), json!("first-data"))
        );
    }
}
