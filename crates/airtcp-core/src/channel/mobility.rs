//! Node positions as functions of time, evaluated lazily: asking where a node is costs no
//! event and no allocation. Random waypoint walks are generated leg by leg from
//! `(seed, node, leg index)`, keeping only the current leg.
//!
//! Time in a simulation never goes backwards, and [`Mobility::position_at`] is cheapest when
//! called with non-decreasing times; an earlier time is still answered exactly (a random
//! waypoint walk is then replayed from its first leg).

use crate::rng::{Draws, TAG_WAYPOINT};
use crate::time::{Dur, SimTime};

/// A rectangle in the horizontal plane at height `z_m`, where random waypoint nodes move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    /// Lower corner (x, y) \[m\].
    pub min_m: [f64; 2],
    /// Upper corner (x, y) \[m\].
    pub max_m: [f64; 2],
    /// The fixed height \[m\].
    pub z_m: f64,
}

impl Area {
    fn point(&self, draws: &mut Draws) -> [f64; 3] {
        let x = self.min_m[0] + (self.max_m[0] - self.min_m[0]) * draws.open01();
        let y = self.min_m[1] + (self.max_m[1] - self.min_m[1]) * draws.open01();
        [x, y, self.z_m]
    }

    /// Clamp rounding out of a straight walk between two points of the (convex) area.
    fn clamp(&self, p: [f64; 3]) -> [f64; 3] {
        [p[0].clamp(self.min_m[0], self.max_m[0]), p[1].clamp(self.min_m[1], self.max_m[1]), self.z_m]
    }

    pub fn contains(&self, p: [f64; 3]) -> bool {
        (self.min_m[0]..=self.max_m[0]).contains(&p[0]) && (self.min_m[1]..=self.max_m[1]).contains(&p[1])
    }
}

/// The parameters of a random waypoint walk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomWaypointSpec {
    pub area: Area,
    /// Each leg's speed is uniform in [`speed_min_mps`, `speed_max_mps`].
    pub speed_min_mps: f64,
    pub speed_max_mps: f64,
    /// The pause before each leg (ns-3 `Pause`, a constant here).
    pub pause: Dur,
    /// Start from the stationary distribution (ns-3 `SteadyStateRandomWaypointMobilityModel`)
    /// instead of uniform positions and a first pause (ns-3 `RandomWaypointMobilityModel`).
    pub steady_state_start: bool,
}

/// ns-3 3.44 `RandomWaypointMobilityModel` defaults: `Speed` U[0.3, 0.7] m/s, `Pause` 2 s.
pub const NS3_RWP_SPEED_MPS: (f64, f64) = (0.3, 0.7);
pub const NS3_RWP_PAUSE: Dur = Dur::from_ms(2_000);

impl RandomWaypointSpec {
    /// The speed of a node observed at a random instant while it moves: 1/E\[1/V\] =
    /// (vmax − vmin)/ln(vmax/vmin) for V ~ U[vmin, vmax], since a leg at speed v lasts ∝ 1/v
    /// (Yoon, Liu, Noble, INFOCOM 2003); 0 when vmin = 0.
    pub fn moving_mean_speed_mps(&self) -> f64 {
        1.0 / mean_inverse_speed(self.speed_min_mps, self.speed_max_mps)
    }

    /// The stationary probability that a node is paused: E\[P\] / (E\[P\] + E\[D\]·E\[1/V\]), E\[D\]
    /// the mean distance between two uniform points of the area (ns-3
    /// `SteadyStateRandomWaypointMobilityModel::DoInitializePrivate`, Navidi and Camp).
    /// Needs an area of positive width and height.
    pub fn paused_fraction(&self) -> f64 {
        let pause = self.pause.as_secs_f64();
        let [a, b] = self.extent_m();
        let travel =
            mean_distance_in_rectangle_m(a, b) * mean_inverse_speed(self.speed_min_mps, self.speed_max_mps);
        if pause == 0.0 {
            0.0
        } else {
            pause / (pause + travel)
        }
    }

    fn extent_m(&self) -> [f64; 2] {
        [self.area.max_m[0] - self.area.min_m[0], self.area.max_m[1] - self.area.min_m[1]]
    }

    fn check(&self) -> Result<(), String> {
        let a = &self.area;
        let finite = a.min_m.iter().chain(&a.max_m).chain([&a.z_m]).all(|v| v.is_finite());
        if !finite || a.min_m[0] > a.max_m[0] || a.min_m[1] > a.max_m[1] {
            return Err(format!("random waypoint area {:?} .. {:?} is not a rectangle", a.min_m, a.max_m));
        }
        let (v0, v1) = (self.speed_min_mps, self.speed_max_mps);
        if !(v0.is_finite() && v1.is_finite() && 0.0 <= v0 && v0 <= v1 && v1 > 0.0) {
            return Err(format!(
                "random waypoint speeds must satisfy 0 <= speed_min_mps <= speed_max_mps, \
                 speed_max_mps > 0; got [{v0}, {v1}]"
            ));
        }
        if self.steady_state_start {
            // ns-3 asserts MinSpeed >= 1e-6 and MinX < MaxX, MinY < MaxY.
            if v0 < 1e-6 {
                return Err(format!(
                    "steady-state random waypoint needs speed_min_mps >= 1e-6 (no stationary \
                     distribution otherwise); got {v0}"
                ));
            }
            let [w, h] = self.extent_m();
            if w <= 0.0 || h <= 0.0 {
                return Err("steady-state random waypoint needs an area of positive width and height".into());
            }
        }
        Ok(())
    }

    fn warning(&self) -> Option<String> {
        (self.speed_min_mps <= 0.0).then(|| {
            format!(
                "random waypoint with speed_min_mps = 0: the average speed decays towards zero as \
                 the run goes on (legs at speed v last in proportion to 1/v; Yoon, Liu, Noble, \
                 INFOCOM 2003), so results drift with the run length. Use speed_min_mps > 0 \
                 (the stationary moving speed is then (vmax - vmin)/ln(vmax/vmin)), a warm-up, \
                 or steady_state_start; speeds here are U[0, {}] m/s",
                self.speed_max_mps
            )
        })
    }
}

/// E\[1/V\] for V ~ U[v0, v1]: ln(v1/v0)/(v1 − v0), 1/v0 when v0 = v1 (+∞ when v0 = 0).
fn mean_inverse_speed(v0: f64, v1: f64) -> f64 {
    if v0 == v1 {
        1.0 / v0
    } else {
        (v1 / v0).ln() / (v1 - v0)
    }
}

/// The mean distance between two points uniform in an a × b rectangle (the closed form ns-3
/// `SteadyStateRandomWaypointMobilityModel::DoInitializePrivate` uses; the unit square gives
/// (2 + √2 + 5·ln(1 + √2))/15 = 0.5214). Needs a, b > 0.
pub fn mean_distance_in_rectangle_m(a: f64, b: f64) -> f64 {
    let log1 = b * b / a * ((a * a / (b * b) + 1.0).sqrt() + a / b).ln();
    let log2 = a * a / b * ((b * b / (a * a) + 1.0).sqrt() + b / a).ln();
    let diag = (a * a + b * b).sqrt();
    (log1 + log2) / 6.0 + ((a * a * a) / (b * b) + (b * b * b) / (a * a)) / 15.0
        - diag * ((a * a) / (b * b) + (b * b) / (a * a) - 3.0) / 15.0
}

/// One leg of a walk: paused at `from_m` over [start, depart), moving in a straight line to
/// `to_m` over [depart, arrive); the next leg starts at `arrive`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Leg {
    index: u64,
    start: SimTime,
    depart: SimTime,
    arrive: SimTime,
    from_m: [f64; 3],
    to_m: [f64; 3],
    /// The path walked before this leg [m].
    before_m: f64,
}

/// The key of the draws that place a walk before its first leg.
const INIT_KEY: u64 = u64::MAX;

/// A random waypoint walk (ns-3 `RandomWaypointMobilityModel::DoInitializePrivate` and
/// `BeginWalk`: pause first, then a destination uniform in the area and a speed uniform in
/// [min, max]; or, with `steady_state_start`, `SteadyStateRandomWaypointMobilityModel`'s
/// Navidi-Camp initialisation). Leg k draws from `(seed, node_key, k)` only; the state is the
/// current leg.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomWaypoint {
    spec: RandomWaypointSpec,
    seed: u64,
    node_key: u64,
    leg: Leg,
}

impl RandomWaypoint {
    /// The walk of node `node_key` (a stable entity id, e.g. `rng::entity_id` of its name) in
    /// the run seeded `seed`. The spec should pass [`Mobility::check`].
    pub fn new(spec: RandomWaypointSpec, seed: u64, node_key: u64) -> RandomWaypoint {
        let mut w = RandomWaypoint {
            spec,
            seed,
            node_key,
            leg: Leg {
                index: 0,
                start: SimTime::ZERO,
                depart: SimTime::ZERO,
                arrive: SimTime::ZERO,
                from_m: [0.0; 3],
                to_m: [0.0; 3],
                before_m: 0.0,
            },
        };
        w.leg = w.first_leg();
        w
    }

    pub fn spec(&self) -> &RandomWaypointSpec {
        &self.spec
    }

    /// Where the node is at `now` \[m\].
    pub fn position_at(&mut self, now: SimTime) -> [f64; 3] {
        self.advance(now);
        let l = &self.leg;
        if now < l.depart {
            return l.from_m;
        }
        let frac = (now.ns() - l.depart.ns()) as f64 / (l.arrive.ns() - l.depart.ns()) as f64;
        let p = std::array::from_fn(|i| l.from_m[i] + (l.to_m[i] - l.from_m[i]) * frac);
        self.spec.area.clamp(p)
    }

    /// The node's velocity at `now` \[m/s\] (zero while paused).
    pub fn velocity_at(&mut self, now: SimTime) -> [f64; 3] {
        self.advance(now);
        let l = &self.leg;
        if now < l.depart {
            return [0.0; 3];
        }
        let secs = (l.arrive.ns() - l.depart.ns()) as f64 / 1e9;
        std::array::from_fn(|i| (l.to_m[i] - l.from_m[i]) / secs)
    }

    /// The length of the path walked by `now` [m] (the legs' straight lines; clamping to the
    /// area aside, which only a rounding error reaches).
    pub fn travelled_m(&mut self, now: SimTime) -> f64 {
        self.advance(now);
        let l = &self.leg;
        if now < l.depart {
            return l.before_m;
        }
        let frac = (now.ns() - l.depart.ns()) as f64 / (l.arrive.ns() - l.depart.ns()) as f64;
        l.before_m + dist(l.from_m, l.to_m) * frac.min(1.0)
    }

    /// Make the current leg the one that contains `now`.
    fn advance(&mut self, now: SimTime) {
        if now < self.leg.start {
            self.leg = self.first_leg();
        }
        while now >= self.leg.arrive && self.leg.arrive < SimTime::MAX {
            let l = self.leg;
            self.leg = self.walk(l.index + 1, l.arrive, l.to_m, self.spec.pause);
            self.leg.before_m = l.before_m + dist(l.from_m, l.to_m);
        }
    }

    /// Leg `index`: pause `pause` at `from_m` from `start`, then walk to a destination uniform
    /// in the area at a speed uniform in [min, max] (ns-3 `RandomWaypointMobilityModel::
    /// BeginWalk`).
    fn walk(&self, index: u64, start: SimTime, from_m: [f64; 3], pause: Dur) -> Leg {
        let mut draws = Draws::new(TAG_WAYPOINT, self.seed, self.node_key, index);
        let to_m = self.spec.area.point(&mut draws);
        let (v0, v1) = (self.spec.speed_min_mps, self.spec.speed_max_mps);
        let speed = v0 + (v1 - v0) * draws.open01();
        let depart = start + pause;
        // A leg lasts at least MIN_LEG (airtcp's guard, not ns-3's): without a pause, a point
        // area or a walk shorter than the clock's tick would let no time pass, and finding
        // the leg of an instant would never end.
        let arrive = (depart + travel(from_m, to_m, speed)).max(start + MIN_LEG);
        Leg { index, start, depart, arrive, from_m, to_m, before_m: 0.0 }
    }

    fn first_leg(&self) -> Leg {
        let spec = &self.spec;
        let mut draws = Draws::new(TAG_WAYPOINT, self.seed, self.node_key, INIT_KEY);
        if !spec.steady_state_start {
            // ns-3 RandomWaypointMobilityModel: placed by the position allocator (here uniform
            // in the area), then DoInitializePrivate pauses before the first walk.
            let from = spec.area.point(&mut draws);
            return self.walk(0, SimTime::ZERO, from, spec.pause);
        }
        // ns-3 SteadyStateRandomWaypointMobilityModel::DoInitializePrivate (Navidi and Camp,
        // IEEE TMC 3(1), 2004), with the pause constant (MinPause = MaxPause).
        if draws.open01() < spec.paused_fraction() {
            // Paused at a uniform point for the residual pause u·E[P], then a normal walk.
            let from = spec.area.point(&mut draws);
            let residual = Dur((spec.pause.ns() as f64 * draws.open01()).round() as u64);
            return self.walk(0, SimTime::ZERO, from, residual);
        }
        // Moving: a leg drawn with probability ∝ its length (rejection on r = length /
        // diagonal), the node uniform on it, heading for its end, at a speed of density ∝ 1/v
        // on [v0, v1]: v0^(1−u)·v1^u.
        let [a, b] = spec.extent_m();
        let mut tries = 0;
        let (x1, y1, x2, y2) = loop {
            let (x1, y1) = (a * draws.open01(), b * draws.open01());
            let (x2, y2) = (a * draws.open01(), b * draws.open01());
            let u1 = draws.open01();
            // hypot: no overflow past 1e154 m, no underflow for a subnormal area.
            let r = (x2 - x1).hypot(y2 - y1) / a.hypot(b);
            tries += 1;
            // Accepts with probability E[r] > 0.33 a try; the cap only guards a NaN.
            if u1 < r || tries == 10_000 {
                break (x1, y1, x2, y2);
            }
        };
        let u2 = draws.open01();
        let [mx, my] = spec.area.min_m;
        let from = [mx + u2 * x1 + (1.0 - u2) * x2, my + u2 * y1 + (1.0 - u2) * y2, spec.area.z_m];
        let to = [mx + x2, my + y2, spec.area.z_m];
        let u = draws.open01();
        let speed = spec.speed_min_mps.powf(1.0 - u) * spec.speed_max_mps.powf(u);
        let arrive = SimTime::ZERO + travel(from, to, speed);
        Leg {
            index: 0,
            start: SimTime::ZERO,
            depart: SimTime::ZERO,
            arrive,
            from_m: from,
            to_m: to,
            before_m: 0.0,
        }
    }
}

/// The time to walk from `a` to `b` at `speed_mps`, rounded to the nanosecond (saturating).
/// The shortest leg of a random waypoint walk (pause and walk together).
const MIN_LEG: Dur = Dur(1_000);

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2) + (b[2] - a[2]).powi(2)).sqrt()
}

fn travel(a: [f64; 3], b: [f64; 3], speed_mps: f64) -> Dur {
    let d = dist(a, b);
    if d == 0.0 {
        return Dur::ZERO;
    }
    // `as` saturates (and maps NaN to 0): a walk too slow to end lasts for ever.
    Dur((d / speed_mps * 1e9).round() as u64)
}

/// How a node moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Mobility {
    Static {
        position_m: [f64; 3],
    },
    /// At `start_m` until `since`, then `start_m + velocity_mps·(now − since)` (ns-3
    /// `ConstantVelocityHelper::Update`, evaluated in closed form instead of by increments).
    ConstantVelocity {
        start_m: [f64; 3],
        velocity_mps: [f64; 3],
        since: SimTime,
    },
    /// Straight lines at constant speed between (time, position) points with strictly
    /// increasing times (ns-3 `WaypointMobilityModel::Update`); at the first point before its
    /// time, at the last one after it.
    Waypoints {
        points: Vec<(SimTime, [f64; 3])>,
        /// The path walked by each point [m] ([`Mobility::waypoints`] builds it).
        walked_m: Vec<f64>,
    },
    RandomWaypoint(RandomWaypoint),
}

impl Mobility {
    /// Straight lines between `points` ([`Mobility::Waypoints`]), with the path walked by each.
    pub fn waypoints(points: Vec<(SimTime, [f64; 3])>) -> Mobility {
        let mut walked_m = Vec::with_capacity(points.len());
        let mut sum = 0.0;
        for (k, p) in points.iter().enumerate() {
            if k > 0 {
                sum += dist(points[k - 1].1, p.1);
            }
            walked_m.push(sum);
        }
        Mobility::Waypoints { points, walked_m }
    }

    /// The random waypoint walk of node `node_key` in the run seeded `seed`.
    pub fn random_waypoint(spec: RandomWaypointSpec, seed: u64, node_key: u64) -> Mobility {
        Mobility::RandomWaypoint(RandomWaypoint::new(spec, seed, node_key))
    }

    /// Where the node is at `now` \[m\].
    pub fn position_at(&mut self, now: SimTime) -> [f64; 3] {
        match self {
            Mobility::Static { position_m } => *position_m,
            Mobility::ConstantVelocity { start_m, velocity_mps, since } => {
                // ns → s by a division, exact for whole and half seconds (unlike × 1e-9).
                let dt = now.since(*since).ns() as f64 / 1e9;
                std::array::from_fn(|i| start_m[i] + velocity_mps[i] * dt)
            }
            Mobility::Waypoints { points, .. } => match segment(points, now) {
                Segment::At(p) => p,
                Segment::Between((t0, p0), (t1, p1)) => {
                    let frac = (now.ns() - t0.ns()) as f64 / (t1.ns() - t0.ns()) as f64;
                    std::array::from_fn(|i| p0[i] + (p1[i] - p0[i]) * frac)
                }
            },
            Mobility::RandomWaypoint(w) => w.position_at(now),
        }
    }

    /// The node's velocity at `now` \[m/s\]: e.g. for a Doppler spread or a coherence time.
    pub fn velocity_at(&mut self, now: SimTime) -> [f64; 3] {
        match self {
            Mobility::Static { .. } => [0.0; 3],
            Mobility::ConstantVelocity { velocity_mps, since, .. } => {
                if now < *since {
                    [0.0; 3]
                } else {
                    *velocity_mps
                }
            }
            Mobility::Waypoints { points, .. } => match segment(points, now) {
                Segment::At(_) => [0.0; 3],
                Segment::Between((t0, p0), (t1, p1)) => {
                    let secs = (t1.ns() - t0.ns()) as f64 / 1e9;
                    std::array::from_fn(|i| (p1[i] - p0[i]) / secs)
                }
            },
            Mobility::RandomWaypoint(w) => w.velocity_at(now),
        }
    }

    /// The length of the path the node has travelled by `now` [m]: what moves it through a
    /// standing field of scattered waves (the Doppler of its links, `medium::snr`).
    pub fn travelled_m(&mut self, now: SimTime) -> f64 {
        match self {
            Mobility::Static { .. } => 0.0,
            Mobility::ConstantVelocity { velocity_mps, since, .. } => {
                let speed = velocity_mps.iter().map(|v| v * v).sum::<f64>().sqrt();
                speed * (now.since(*since).ns() as f64 / 1e9)
            }
            Mobility::Waypoints { points, walked_m } => {
                // The points passed by `now`, then the part of the segment it is on.
                let i = points.partition_point(|(t, _)| *t <= now);
                let mut d = i.checked_sub(1).map_or(0.0, |k| walked_m[k]);
                if let Segment::Between((t0, p0), (t1, p1)) = segment(points, now) {
                    d += dist(p0, p1) * ((now.ns() - t0.ns()) as f64 / (t1.ns() - t0.ns()) as f64);
                }
                d
            }
            Mobility::RandomWaypoint(w) => w.travelled_m(now),
        }
    }

    /// The node's speed at `now` [m/s].
    pub fn speed_mps(&mut self, now: SimTime) -> f64 {
        self.velocity_at(now).iter().map(|v| v * v).sum::<f64>().sqrt()
    }

    /// Whether the description can be run.
    pub fn check(&self) -> Result<(), String> {
        let finite = |p: &[f64; 3]| p.iter().all(|v| v.is_finite());
        match self {
            Mobility::Static { position_m } if !finite(position_m) => {
                Err(format!("position {position_m:?} is not finite"))
            }
            Mobility::ConstantVelocity { start_m, velocity_mps, .. }
                if !(finite(start_m) && finite(velocity_mps)) =>
            {
                Err(format!("constant velocity {start_m:?} + {velocity_mps:?}·t is not finite"))
            }
            Mobility::Waypoints { points, .. } => {
                if points.is_empty() {
                    return Err("waypoints: the list is empty".into());
                }
                if let Some((_, p)) = points.iter().find(|(_, p)| !finite(p)) {
                    return Err(format!("waypoint {p:?} is not finite"));
                }
                match points.windows(2).find(|w| w[1].0 <= w[0].0) {
                    Some(w) => {
                        Err(format!("waypoint times must increase strictly: {} then {}", w[0].0, w[1].0))
                    }
                    None => Ok(()),
                }
            }
            Mobility::RandomWaypoint(w) => w.spec.check(),
            _ => Ok(()),
        }
    }

    /// A warning about a legal but misleading description: a random waypoint walk with a
    /// minimum speed of 0.
    pub fn warning(&self) -> Option<String> {
        match self {
            Mobility::RandomWaypoint(w) => w.spec.warning(),
            _ => None,
        }
    }
}

enum Segment {
    At([f64; 3]),
    Between((SimTime, [f64; 3]), (SimTime, [f64; 3])),
}

/// Where `now` falls in a waypoint list (binary search; an empty list is the origin).
fn segment(points: &[(SimTime, [f64; 3])], now: SimTime) -> Segment {
    let i = points.partition_point(|(t, _)| *t <= now);
    match (i.checked_sub(1).map(|j| points[j]), points.get(i).copied()) {
        (Some(a), Some(b)) => Segment::Between(a, b),
        (Some((_, p)), None) | (None, Some((_, p))) => Segment::At(p),
        (None, None) => Segment::At([0.0; 3]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1_000_000_000;

    fn area(w: f64, h: f64) -> Area {
        Area { min_m: [-w / 2.0, 10.0], max_m: [w / 2.0, 10.0 + h], z_m: 1.5 }
    }

    fn rwp(a: Area, v: (f64, f64), pause: Dur, steady: bool) -> RandomWaypointSpec {
        RandomWaypointSpec {
            area: a,
            speed_min_mps: v.0,
            speed_max_mps: v.1,
            pause,
            steady_state_start: steady,
        }
    }

    fn speed(v: [f64; 3]) -> f64 {
        (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
    }

    #[test]
    fn degenerate_random_waypoints_still_let_time_pass() {
        // Found by the core fuzz test (issue 29): each looped for ever.
        let point = Area { min_m: [5.0, 5.0], max_m: [5.0, 5.0], z_m: 0.0 };
        let huge = Area { min_m: [0.0, 0.0], max_m: [1e200, 1e200], z_m: 0.0 };
        let tiny = Area { min_m: [0.0, 0.0], max_m: [1e-300, 1e-300], z_m: 0.0 };
        // A point area without pause: every leg lasts MIN_LEG, so 10 ms are 10^4 legs.
        let mut m = RandomWaypoint::new(rwp(point, (1.0, 2.0), Dur::ZERO, false), 1, 1);
        assert_eq!(m.position_at(SimTime(10_000_000)), [5.0, 5.0, 0.0]);
        // Legs that round to 0 ns (1e15 m/s across 10 m).
        let ten = Area { min_m: [0.0, 0.0], max_m: [10.0, 10.0], z_m: 0.0 };
        let mut m = RandomWaypoint::new(rwp(ten, (1e15, 1e15), Dur::ZERO, false), 1, 1);
        let p = m.position_at(SimTime(5_000_000));
        assert!(p.iter().all(|v| (0.0..=10.0).contains(v)), "{p:?}");
        // The steady state's first leg over an area whose squares overflow or underflow.
        for a in [huge, tiny] {
            let mut m = RandomWaypoint::new(rwp(a, (1.0, 2.0), Dur::from_ms(10), true), 1, 1);
            let p = m.position_at(SimTime::ZERO);
            assert!(p[0] >= 0.0 && p[0] <= a.max_m[0], "{p:?}");
        }
    }

    #[test]
    fn static_and_constant_velocity_are_exact() {
        let mut s = Mobility::Static { position_m: [1.0, 2.0, 3.0] };
        assert_eq!(s.position_at(SimTime(7 * S)), [1.0, 2.0, 3.0]);
        assert_eq!(s.velocity_at(SimTime(7 * S)), [0.0; 3]);
        let mut m = Mobility::ConstantVelocity {
            start_m: [1.0, 2.0, 3.0],
            velocity_mps: [3.0, -4.0, 0.5],
            since: SimTime(2 * S),
        };
        // Hand computation: 10.5 s after `since`, (1 + 31.5, 2 − 42, 3 + 5.25).
        assert_eq!(m.position_at(SimTime(12 * S + S / 2)), [32.5, -40.0, 8.25]);
        assert_eq!(m.position_at(SimTime(S)), [1.0, 2.0, 3.0]);
        assert_eq!(m.position_at(SimTime(2 * S)), [1.0, 2.0, 3.0]);
        assert_eq!(m.velocity_at(SimTime(S)), [0.0; 3]);
        assert_eq!(m.velocity_at(SimTime(3 * S)), [3.0, -4.0, 0.5]);
        // Path travelled: |v| = sqrt(9 + 16 + 0.25) = 5.025 m/s for the 10.5 s since `since`.
        assert!((m.travelled_m(SimTime(12 * S + S / 2)) - 25.25f64.sqrt() * 10.5).abs() < 1e-9);
        assert_eq!(m.travelled_m(SimTime(S)), 0.0);
        // Paper B's away/toward runs: 10 m/s along x from 0, 100 m after 10 s.
        let mut away = Mobility::ConstantVelocity {
            start_m: [0.0; 3],
            velocity_mps: [10.0, 0.0, 0.0],
            since: SimTime::ZERO,
        };
        assert_eq!(away.position_at(SimTime(10 * S)), [100.0, 0.0, 0.0]);
        assert_eq!(away.position_at(SimTime(1_000_000)), [0.01, 0.0, 0.0]);
    }

    #[test]
    fn a_random_walks_path_is_the_integral_of_its_speed() {
        // Sampled every 10 ms over 300 s (legs of seconds, pauses of 2 s), the sum of speed x
        // dt against the path length of the legs: equal within the sampling's error at the
        // legs' ends (a few hundredths of a metre per leg).
        let spec = rwp(area(100.0, 50.0), (1.0, 3.0), Dur(2 * S), false);
        let mut w = Mobility::random_waypoint(spec, 4, 9);
        let dt = 10_000_000u64;
        let mut integral = 0.0;
        for k in 0..30_000u64 {
            integral += w.speed_mps(SimTime(k * dt + dt / 2)) * dt as f64 / 1e9;
        }
        let path = w.travelled_m(SimTime(30_000 * dt));
        assert!(path > 200.0, "{path}");
        assert!((integral - path).abs() < 0.01 * path, "{integral} against {path}");
        // Asked out of order, the same answer.
        let mid = w.travelled_m(SimTime(100 * S));
        assert_eq!(
            w.travelled_m(SimTime(250 * S)),
            Mobility::random_waypoint(spec, 4, 9).travelled_m(SimTime(250 * S))
        );
        assert_eq!(w.travelled_m(SimTime(100 * S)), mid);
    }

    #[test]
    fn waypoints_interpolate_exactly() {
        let mut w = Mobility::waypoints(vec![
            (SimTime(2 * S), [0.0, 0.0, 0.0]),
            (SimTime(6 * S), [8.0, -4.0, 2.0]),
            (SimTime(8 * S), [8.0, 0.0, 2.0]),
        ]);
        assert!(w.check().is_ok());
        // Before the first point: there. A quarter, a half of the first segment (hand).
        assert_eq!(w.position_at(SimTime::ZERO), [0.0, 0.0, 0.0]);
        assert_eq!(w.position_at(SimTime(3 * S)), [2.0, -1.0, 0.5]);
        assert_eq!(w.position_at(SimTime(4 * S)), [4.0, -2.0, 1.0]);
        assert_eq!(w.position_at(SimTime(6 * S)), [8.0, -4.0, 2.0]);
        assert_eq!(w.position_at(SimTime(7 * S)), [8.0, -2.0, 2.0]);
        // After the last point: static there.
        assert_eq!(w.position_at(SimTime(8 * S)), [8.0, 0.0, 2.0]);
        assert_eq!(w.position_at(SimTime(100 * S)), [8.0, 0.0, 2.0]);
        // Out of order queries are answered too.
        assert_eq!(w.position_at(SimTime(3 * S)), [2.0, -1.0, 0.5]);
        assert_eq!(w.velocity_at(SimTime(3 * S)), [2.0, -1.0, 0.5]);
        assert_eq!(w.velocity_at(SimTime(7 * S)), [0.0, 2.0, 0.0]);
        assert_eq!(w.velocity_at(SimTime(9 * S)), [0.0; 3]);
        assert_eq!(w.velocity_at(SimTime(S)), [0.0; 3]);
        // The path travelled (hand): the first segment is sqrt(64 + 16 + 4) = 9.165 m long,
        // the second 4 m.
        let first = 84f64.sqrt();
        assert_eq!(w.travelled_m(SimTime(S)), 0.0);
        assert!((w.travelled_m(SimTime(4 * S)) - first / 2.0).abs() < 1e-12);
        assert!((w.travelled_m(SimTime(7 * S)) - (first + 2.0)).abs() < 1e-12);
        assert!((w.travelled_m(SimTime(50 * S)) - (first + 4.0)).abs() < 1e-12);
        let bad = Mobility::waypoints(vec![(SimTime(S), [0.0; 3]), (SimTime(S), [1.0; 3])]);
        assert!(bad.check().is_err());
        assert!(Mobility::waypoints(vec![]).check().is_err());
    }

    #[test]
    fn mean_distance_in_a_rectangle_matches_the_closed_form() {
        // Unit square (closed form): (2 + √2 + 5·ln(1 + √2))/15 = 0.521405.
        assert!((mean_distance_in_rectangle_m(1.0, 1.0) - 0.521_405_4).abs() < 1e-6);
        // Scales with the side.
        assert!((mean_distance_in_rectangle_m(100.0, 100.0) - 52.140_54).abs() < 1e-4);
        // 3 × 1 rectangle against a Monte Carlo estimate (standard error ~0.003).
        let mut d = Draws::new(0, 1, 2, 3);
        let n = 100_000;
        let mut sum = 0.0;
        for _ in 0..n {
            let (x1, y1, x2, y2) = (3.0 * d.open01(), d.open01(), 3.0 * d.open01(), d.open01());
            sum += ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt();
        }
        let mc = sum / n as f64;
        assert!((mean_distance_in_rectangle_m(3.0, 1.0) - mc).abs() < 0.01, "{mc}");
    }

    #[test]
    fn random_waypoint_follows_ns3_pause_first_and_is_reproducible() {
        let spec = rwp(area(100.0, 50.0), (1.0, 10.0), Dur::from_ms(2_000), false);
        let mut a = RandomWaypoint::new(spec, 7, 42);
        let p0 = a.position_at(SimTime::ZERO);
        // Paused during the first 2 s (ns-3 DoInitializePrivate), then moving.
        assert_eq!(a.position_at(SimTime(2 * S - 1)), p0);
        assert_eq!(a.velocity_at(SimTime(S)), [0.0; 3]);
        let v = speed(a.velocity_at(SimTime(2 * S)));
        assert!((1.0..=10.0).contains(&v), "{v}");
        assert_ne!(a.position_at(SimTime(2 * S + S / 10)), p0);
        // Same (seed, node): same walk, whatever the query times; other node: other walk.
        let mut b = RandomWaypoint::new(spec, 7, 42);
        let mut c = RandomWaypoint::new(spec, 7, 43);
        assert_eq!(b.position_at(SimTime(500 * S)), a.position_at(SimTime(500 * S)));
        assert_ne!(c.position_at(SimTime(500 * S)), a.position_at(SimTime(500 * S)));
        // Going back in time replays the walk exactly.
        let early = RandomWaypoint::new(spec, 7, 42).position_at(SimTime(37 * S));
        assert_eq!(a.position_at(SimTime(37 * S)), early);
        // The leg state is small and Copy.
        assert!(std::mem::size_of::<RandomWaypoint>() <= 192);
    }

    #[test]
    fn random_waypoint_long_run_speed_matches_the_stationary_closed_form() {
        // No pause, speeds U[1, 10]: the time-average speed is (10 − 1)/ln 10 = 3.9087 m/s
        // (Yoon, Liu, Noble 2003; closed form), not the arithmetic mean 5.5. A 20 m square
        // makes ~37,000 legs per node in 1e5 s (standard error ~0.6 % per node, measured over
        // ten seeds); four nodes, sampled every second.
        let spec = rwp(area(20.0, 20.0), (1.0, 10.0), Dur::ZERO, false);
        assert!((spec.moving_mean_speed_mps() - 3.908_65).abs() < 1e-5);
        let (nodes, n) = (4, 100_000);
        let mut sum = 0.0;
        for node in 0..nodes {
            let mut w = Mobility::random_waypoint(spec, 1, node);
            for k in 0..n {
                let t = SimTime(k * S + 12_345);
                sum += speed(w.velocity_at(t));
                assert!(spec.area.contains(w.position_at(t)));
            }
            assert!(w.warning().is_none());
        }
        let avg = sum / (nodes * n) as f64;
        assert!((avg / spec.moving_mean_speed_mps() - 1.0).abs() < 0.02, "{avg}");
    }

    /// The mean speed of `nodes` walks at time 0, and averaged over the first `horizon_s`
    /// seconds (sampled every `step_s`, mid-step).
    fn population_speed(spec: RandomWaypointSpec, nodes: u64, horizon_s: u64, step_s: u64) -> (f64, f64) {
        let (mut at0, mut avg, mut samples) = (0.0, 0.0, 0);
        for node in 0..nodes {
            let mut w = RandomWaypoint::new(spec, 99, node);
            at0 += speed(w.velocity_at(SimTime::ZERO));
            for s in (0..horizon_s).step_by(step_s as usize) {
                let t = SimTime(s * S + step_s * S / 2);
                avg += speed(w.velocity_at(t));
                samples += 1;
                assert!(spec.area.contains(w.position_at(t)));
            }
        }
        (at0 / nodes as f64, avg / samples as f64)
    }

    #[test]
    fn steady_state_start_has_the_stationary_speed_from_the_first_second() {
        // No pause, U[1, 10] m/s in a 1000 m × 1000 m square (legs of ~130 s, so the first
        // 100 s are mostly the first leg). Stationary: 3.9087 m/s (closed form). 8000 nodes:
        // standard error 2.5/sqrt(8000) = 0.7 %.
        let target = 9.0 / 10f64.ln();
        let area = area(1000.0, 1000.0);
        let (at0, first100) = population_speed(rwp(area, (1.0, 10.0), Dur::ZERO, true), 8000, 100, 10);
        assert!((at0 / target - 1.0).abs() < 0.03, "steady, t = 0: {at0}");
        assert!((first100 / target - 1.0).abs() < 0.03, "steady, first 100 s: {first100}");
        // ns-3's plain RandomWaypoint starts at the arithmetic mean 5.5 m/s and is still far
        // above the stationary speed over the first 100 s.
        let (at0, first100) = population_speed(rwp(area, (1.0, 10.0), Dur::ZERO, false), 8000, 100, 10);
        assert!((at0 / 5.5 - 1.0).abs() < 0.03, "plain, t = 0: {at0}");
        assert!(first100 > 1.2 * target, "plain, first 100 s: {first100}");
    }

    #[test]
    fn steady_state_start_has_the_stationary_paused_fraction() {
        // Pause 10 s, U[1, 10] m/s, 100 m square: E[travel] = 52.1405·ln(10)/9 = 13.340 s, so
        // P(paused) = 10/23.340 = 0.4284 (closed form, ns-3's formula). Nodes at t = 0 under
        // steady_state_start, and one node's long-run time fraction, both match it.
        let spec = rwp(area(100.0, 100.0), (1.0, 10.0), Dur::from_ms(10_000), true);
        let p = spec.paused_fraction();
        assert!((p - 0.4284).abs() < 1e-3, "{p}");
        let nodes = 10_000;
        // Binomial standard error at 10,000 nodes: 0.005.
        let paused0 = (0..nodes)
            .filter(|&n| RandomWaypoint::new(spec, 3, n).velocity_at(SimTime::ZERO) == [0.0; 3])
            .count() as f64
            / nodes as f64;
        assert!((paused0 - p).abs() < 0.02, "{paused0}");
        let mut w = RandomWaypoint::new(spec, 3, 1);
        let n = 100_000;
        let paused =
            (0..n).filter(|k| w.velocity_at(SimTime(k * 2 * S)) == [0.0; 3]).count() as f64 / n as f64;
        assert!((paused - p).abs() < 0.02, "{paused}");
    }

    #[test]
    fn checks_and_the_zero_speed_warning() {
        let zero = Mobility::RandomWaypoint(RandomWaypoint::new(
            rwp(area(10.0, 10.0), (0.0, 10.0), Dur::ZERO, false),
            1,
            1,
        ));
        assert!(zero.check().is_ok());
        let msg = zero.warning().expect("a warning");
        assert!(msg.contains("decays") && msg.contains("Yoon"), "{msg}");
        let steady_zero = rwp(area(10.0, 10.0), (0.0, 10.0), Dur::ZERO, true);
        assert!(steady_zero.check().is_err());
        assert!(rwp(area(10.0, 10.0), (5.0, 1.0), Dur::ZERO, false).check().is_err());
        assert!(rwp(area(0.0, 10.0), (1.0, 2.0), Dur::ZERO, true).check().is_err());
        assert!(rwp(area(0.0, 10.0), (1.0, 2.0), Dur::ZERO, false).check().is_ok());
        assert!(Mobility::Static { position_m: [f64::NAN, 0.0, 0.0] }.check().is_err());
        // Speeds with min 0 still never stall a leg (uniforms are drawn in (0, 1)).
        let mut w = RandomWaypoint::new(rwp(area(10.0, 10.0), (0.0, 10.0), Dur::ZERO, false), 1, 1);
        let p = w.position_at(SimTime(1000 * S));
        assert!(area(10.0, 10.0).contains(p));
    }
}
