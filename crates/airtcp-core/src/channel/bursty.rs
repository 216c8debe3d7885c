//! Bursty loss: a Gilbert-Elliott channel in continuous time, one per directed link (paper
//! 000: a throughput curve over the retry limit bends down only when losses are transient and
//! bursty). The link is Good or Bad, with exponential sojourns of means `good` and `bad`; a
//! frame on it is lost with probability `loss_good` or `loss_bad`. Between two frames a gap
//! `d` apart the state moves by the two-state chain's transition probabilities
//! P(Good -> Bad) = pi_B (1 - e^(-lambda d)) and P(Bad -> Bad) = pi_B + pi_G e^(-lambda d), with
//! lambda = 1/good + 1/bad and pi_B = bad / (good + bad) (Gilbert 1960, Elliott 1963; the
//! continuous-time form of the research note, section 7). A link's first frame finds it in
//! its stationary state. No event is scheduled: the state is advanced when a frame arrives.

use crate::rng::Stream;
use crate::time::{Dur, SimTime};

/// Parameters of the Gilbert-Elliott channel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GilbertElliott {
    /// Mean time in the Good and in the Bad state.
    pub good: Dur,
    pub bad: Dur,
    /// Probability that a frame is lost in each state.
    pub loss_good: f64,
    pub loss_bad: f64,
}

/// One directed link's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkState {
    /// 0: no frame yet; 1: Good; 2: Bad.
    state: u8,
    /// When the state was last drawn.
    at: SimTime,
}

impl GilbertElliott {
    /// Stationary probability of the Bad state.
    pub fn pi_bad(&self) -> f64 {
        let (g, b) = (self.good.ns() as f64, self.bad.ns() as f64);
        b / (g + b)
    }

    /// Long-run fraction of frames lost (frames sampling the chain at random times).
    pub fn mean_loss(&self) -> f64 {
        let pb = self.pi_bad();
        (1.0 - pb) * self.loss_good + pb * self.loss_bad
    }

    /// Probability of being Bad `gap` after being Bad (`from_bad`) or Good.
    pub fn p_bad_after(&self, from_bad: bool, gap: Dur) -> f64 {
        let (g, b) = (self.good.ns() as f64, self.bad.ns() as f64);
        let lambda = 1.0 / g + 1.0 / b;
        let decay = (-lambda * gap.ns() as f64).exp();
        let pb = b / (g + b);
        if from_bad {
            pb + (1.0 - pb) * decay
        } else {
            pb * (1.0 - decay)
        }
    }

    /// A frame on the link with state `st` at `now`: advance the state, then whether the frame
    /// is lost (two draws from `rng`).
    pub fn lost(&self, st: &mut LinkState, now: SimTime, rng: &mut Stream) -> bool {
        let p_bad = match st.state {
            0 => self.pi_bad(),
            s => self.p_bad_after(s == 2, now.since(st.at)),
        };
        let bad = rng.unit() < p_bad;
        *st = LinkState { state: if bad { 2 } else { 1 }, at: now };
        rng.bernoulli(if bad { self.loss_bad } else { self.loss_good })
    }
}

/// An external interferer on a directed link (a microwave oven, a neighbouring network),
/// switching on and off with exponential periods of means `on` and `off`: a frame is lost if
/// the interferer is on at any instant of it. It is the two-state chain above with the
/// frame's whole duration at stake, not only its start: a frame of duration `d` starting at
/// a random time is lost with probability pi_on + pi_off (1 - e^(-d/off)), and one starting a
/// gap `g` after a delivered frame ended with p + (1 - p)(1 - e^(-d/off)),
/// p = pi_on (1 - e^(-lambda g)) (the interferer was off at that frame's end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnOff {
    pub on: Dur,
    pub off: Dur,
}

impl OnOff {
    /// The on/off chain as a Gilbert-Elliott channel (on = Bad).
    fn chain(&self) -> GilbertElliott {
        GilbertElliott { good: self.off, bad: self.on, loss_good: 0.0, loss_bad: 1.0 }
    }

    /// Stationary probability that the interferer is on.
    pub fn pi_on(&self) -> f64 {
        self.chain().pi_bad()
    }

    /// Probability that a frame of duration `d` starting at a random time is lost.
    pub fn loss_of(&self, d: Dur) -> f64 {
        let pi_on = self.pi_on();
        pi_on + (1.0 - pi_on) * (1.0 - (-(d.ns() as f64) / self.off.ns() as f64).exp())
    }

    /// Probability that a frame of duration `d` is lost when it starts `gap` after a
    /// delivered frame ended.
    pub fn loss_after_delivery(&self, gap: Dur, d: Dur) -> f64 {
        let p = self.chain().p_bad_after(false, gap);
        p + (1.0 - p) * (1.0 - (-(d.ns() as f64) / self.off.ns() as f64).exp())
    }

    /// The run-length distribution of losses for frames of duration `d` sent every `period`
    /// (start to start, `period >= d`): P(a run of losses has length n), n = 1, 2, ...
    /// (`out[n - 1]`, for n up to `out.len()`).
    ///
    /// The interferer's state at each frame start is the chain sampled every `period`, so
    /// (state, loss) is a hidden Markov chain with 2 x 2 matrices, states ordered (on, off):
    /// `L[s][s'] = P(frame lost, next start in s' | start in s)` and `K[s][s']` the same for a
    /// delivered frame. From on: always lost, `L[on] = P_T(on, .)`, `K[on] = 0`. From off:
    /// delivered if the off period outlasts the frame (e^(-d/off)), after which the chain
    /// runs the gap g = period - d from off: `K[off] = e^(-d/off) P_g(off, .)`, and
    /// `L[off] = P_T(off, .) - K[off]`. A run starts at a frame that follows a delivered one,
    /// whose start state is `u = pi K / (pi K 1)` (pi the stationary law), so
    /// P(run = n) = u L^(n-1) K 1 / (u 1): matrix-geometric, with
    /// `P_t(s, s')` the two-state transition probabilities over t.
    pub fn loss_run_pmf(&self, d: Dur, period: Dur, out: &mut [f64]) {
        let chain = self.chain();
        let g = Dur(period.ns().saturating_sub(d.ns()));
        let p = |from_on: bool, t: Dur| {
            let on = chain.p_bad_after(from_on, t);
            [on, 1.0 - on]
        };
        let keep = (-(d.ns() as f64) / self.off.ns() as f64).exp();
        let k_off = p(false, g).map(|x| keep * x);
        let t_off = p(false, period);
        let l = [p(true, period), [t_off[0] - k_off[0], t_off[1] - k_off[1]]];
        let k = [[0.0, 0.0], k_off];
        let pi = [self.pi_on(), 1.0 - self.pi_on()];
        // u: the start state of a frame that follows a delivered one.
        let u0 = [pi[0] * k[0][0] + pi[1] * k[1][0], pi[0] * k[0][1] + pi[1] * k[1][1]];
        let norm = u0[0] + u0[1];
        let u = [u0[0] / norm, u0[1] / norm];
        let lost = |v: [f64; 2]| [v[0] * l[0][0] + v[1] * l[1][0], v[0] * l[0][1] + v[1] * l[1][1]];
        let delivered = |v: [f64; 2]| v[0] * (k[0][0] + k[0][1]) + v[1] * (k[1][0] + k[1][1]);
        // A run starts when that frame is lost: P(u L 1).
        let first = lost(u);
        let first_lost = first[0] + first[1];
        // v = u L^n: the start state of frame n + 1 jointly with n losses in a row.
        let mut v = first;
        for slot in out.iter_mut() {
            *slot = delivered(v) / first_lost;
            v = lost(v);
        }
    }

    /// A frame of duration `dur` on the link with state `st` starts at `start`: advance the
    /// state and say whether the frame is lost (one or two draws from `rng`). If the
    /// interferer is off at the start, the rest of its off period is exponential with mean
    /// `off` (memoryless): the frame survives if that outlasts it.
    pub fn lost(&self, st: &mut LinkState, start: SimTime, dur: Dur, rng: &mut Stream) -> bool {
        let chain = self.chain();
        let p_on = match st.state {
            0 => chain.pi_bad(),
            s => chain.p_bad_after(s == 2, start.since(st.at)),
        };
        if rng.unit() < p_on {
            *st = LinkState { state: 2, at: start };
            return true;
        }
        let rest_ns = -(1.0 - rng.unit()).ln() * self.off.ns() as f64;
        if rest_ns < dur.ns() as f64 {
            *st = LinkState { state: 2, at: start + Dur(rest_ns as u64) };
            true
        } else {
            // Off through the whole frame: the chain restarts from "off" at its end.
            *st = LinkState { state: 1, at: start + dur };
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Purpose;

    #[test]
    fn the_loss_run_distribution_of_the_interferer_matches_its_closed_form() {
        // Frames of 2 ms every 3 ms, on 5 ms, off 20 ms: simulate 4e5 frames through
        // `OnOff::lost` and compare the distribution of loss-run lengths with the
        // matrix-geometric closed form, n = 1..6, each within its binomial 95 % interval.
        let oo = OnOff { on: Dur::from_ms(5), off: Dur::from_ms(20) };
        let (d, period) = (Dur::from_ms(2), Dur::from_ms(3));
        let mut pmf = [0.0; 6];
        oo.loss_run_pmf(d, period, &mut pmf);
        assert!(pmf.windows(2).all(|w| w[1] < w[0]), "{pmf:?}");
        let mut rng = Stream::derive(11, 12, Purpose::RxError);
        let mut st = LinkState::default();
        let (mut runs, mut counts, mut run) = (0u32, [0u32; 6], 0usize);
        for k in 0..400_000u64 {
            if oo.lost(&mut st, SimTime(k * period.ns()), d, &mut rng) {
                run += 1;
            } else if run > 0 {
                runs += 1;
                if run <= 6 {
                    counts[run - 1] += 1;
                }
                run = 0;
            }
        }
        for n in 0..6 {
            let p = pmf[n];
            let half = 1.96 * (p * (1.0 - p) / f64::from(runs)).sqrt() + 1e-4;
            let measured = f64::from(counts[n]) / f64::from(runs);
            assert!((measured - p).abs() < half, "n = {}: {measured:.4} vs {p:.4} over {runs} runs", n + 1);
        }
    }

    #[test]
    fn an_on_off_interferer_kills_frames_it_overlaps_at_the_closed_form_rates() {
        // on 5 ms, off 20 ms: pi_on = 0.2. Frames of 2 ms: an isolated frame (100 s apart) is
        // lost with 0.2 + 0.8 (1 - e^(-0.1)) = 0.2761; frames 1 ms after a delivered frame with
        // p = 0.2 (1 - e^(-0.25 ms^-1 x 1 ms)) = 0.0442, so 0.0442 + 0.9558 x 0.0952 = 0.1352
        // (hand computation from the closed forms above).
        let oo = OnOff { on: Dur::from_ms(5), off: Dur::from_ms(20) };
        let d = Dur::from_ms(2);
        assert!((oo.loss_of(d) - 0.2761).abs() < 1e-4, "{}", oo.loss_of(d));
        assert!((oo.loss_after_delivery(Dur::from_ms(1), d) - 0.1352).abs() < 1e-4);
        let mut rng = Stream::derive(3, 4, Purpose::RxError);
        let (n, mut lost) = (200_000u32, 0u32);
        let mut st = LinkState::default();
        for k in 0..n {
            let start = SimTime(u64::from(k) * 100_000_000_000);
            lost += u32::from(oo.lost(&mut st, start, d, &mut rng));
        }
        let p = oo.loss_of(d);
        let half = 1.96 * (p * (1.0 - p) / f64::from(n)).sqrt();
        assert!((f64::from(lost) / f64::from(n) - p).abs() < half, "{lost}/{n} vs {p}");
        // Frames 1 ms after a delivered one: count only those whose predecessor got through.
        let (mut after_ok, mut lost_after_ok, mut prev_ok) = (0u32, 0u32, false);
        let mut st = LinkState::default();
        let mut t = SimTime::ZERO;
        for _ in 0..n {
            let l = oo.lost(&mut st, t, d, &mut rng);
            if prev_ok {
                after_ok += 1;
                lost_after_ok += u32::from(l);
            }
            prev_ok = !l;
            t = t + d + Dur::from_ms(1);
        }
        let p = oo.loss_after_delivery(Dur::from_ms(1), d);
        let half = 1.96 * (p * (1.0 - p) / f64::from(after_ok)).sqrt();
        let measured = f64::from(lost_after_ok) / f64::from(after_ok);
        assert!((measured - p).abs() < half, "{measured} vs {p}");
    }

    fn ge(good_ms: u64, bad_ms: u64, loss_good: f64, loss_bad: f64) -> GilbertElliott {
        GilbertElliott { good: Dur::from_ms(good_ms), bad: Dur::from_ms(bad_ms), loss_good, loss_bad }
    }

    /// Frames every `gap` on one link for `n` frames: the losses.
    fn losses(m: &GilbertElliott, gap: Dur, n: usize) -> Vec<bool> {
        let mut rng = Stream::derive(7, 1, Purpose::RxError);
        let mut st = LinkState::default();
        (0..n).map(|k| m.lost(&mut st, SimTime::ZERO + gap.times(k as u64), &mut rng)).collect()
    }

    #[test]
    fn the_transition_probabilities_are_those_of_the_two_state_chain() {
        let m = ge(90, 10, 0.0, 1.0);
        assert!((m.pi_bad() - 0.1).abs() < 1e-12);
        // No time passed: the state stays; a long gap: the stationary state.
        assert_eq!(m.p_bad_after(true, Dur::ZERO), 1.0);
        assert_eq!(m.p_bad_after(false, Dur::ZERO), 0.0);
        assert!((m.p_bad_after(false, Dur::from_ms(10_000)) - 0.1).abs() < 1e-12);
        // Hand computed: lambda = 1/90 + 1/10 per ms; after 5 ms e^(-5 lambda) = 0.57375.
        let d = (-5.0f64 * (1.0 / 90.0 + 0.1)).exp();
        assert!((m.p_bad_after(true, Dur::from_ms(5)) - (0.1 + 0.9 * d)).abs() < 1e-12);
    }

    #[test]
    fn the_loss_rate_and_the_mean_loss_run_follow_the_closed_forms() {
        // Good 90 ms, Bad 10 ms, every frame in Bad lost, none in Good; a frame every 2 ms.
        let m = ge(90, 10, 0.0, 1.0);
        let gap = Dur::from_ms(2);
        let l = losses(&m, gap, 400_000);
        let rate = l.iter().filter(|&&x| x).count() as f64 / l.len() as f64;
        assert!((rate - m.mean_loss()).abs() < 0.005, "{rate}");
        // Runs of losses are geometric with continuation P(Bad -> Bad over 2 ms): mean
        // 1 / (1 - p) = 1 / (1 - 0.8116) = 5.31 frames (hand computed).
        let p = m.p_bad_after(true, gap);
        let (mut runs, mut total, mut cur) = (0u64, 0u64, 0u64);
        for &x in &l {
            if x {
                cur += 1;
            } else if cur > 0 {
                (runs, total, cur) = (runs + 1, total + cur, 0);
            }
        }
        let mean = total as f64 / runs as f64;
        assert!((mean - 1.0 / (1.0 - p)).abs() / (1.0 / (1.0 - p)) < 0.03, "{mean} vs {}", 1.0 / (1.0 - p));
        // Independent losses at the same rate would give runs of 1 / (1 - 0.1) = 1.11.
        assert!(mean > 4.0);
    }

    #[test]
    fn partial_losses_in_each_state() {
        let m = ge(50, 50, 0.02, 0.6);
        let l = losses(&m, Dur::from_ms(30), 200_000);
        let rate = l.iter().filter(|&&x| x).count() as f64 / l.len() as f64;
        assert!((m.mean_loss() - 0.31).abs() < 1e-12);
        assert!((rate - 0.31).abs() < 0.006, "{rate}");
    }
}
