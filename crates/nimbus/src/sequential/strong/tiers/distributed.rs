//! The tier solver across the processes of an MPI job (cargo feature `mpi`).
//!
//! Rank 0 manages; every other rank works, each with all its threads. The job runs the
//! single-process solver's two passes in the same order, each tier split into jobs that the
//! manager hands to whichever worker asks next:
//!
//! - *reachability*, tier by tier from the start's: a job is a range of ranks of tier `t`
//!   whose moves the worker marks in its own bits of tier `t + 1`; when the tier's jobs are
//!   done, the workers OR their bits together (an all-reduce among the workers), so each holds
//!   the reachable set of every tier, as the single solver does;
//! - *values*, from the last tier to the first: the first worker writes the tier's
//!   reachability file and sends the manager the number of reachable positions; a job is one
//!   block of the values file (4 Mi reachable positions), which the worker values from the
//!   tier after it (read from the shared directory, where the manager wrote it), compresses
//!   and writes as a part file (`tier-K.bin.block-B`, and the remoteness blocks beside it);
//!   when every block is in, the manager checks each against its checksum and joins them into
//!   `tier-K.bin` (and `tier-K.rem`), byte for byte the files the single-process solver
//!   writes.
//!
//! So the directory must be one that every rank sees (a shared file system on a cluster). A
//! stopped job leaves its finished tiers and its finished blocks of the tier it was in; a
//! new job skips both. A failure on any rank ends the whole job: the failing process leaves
//! without finalising MPI, and `mpirun` (or `srun`) stops the others.

use crate::sequential::strong::tiers::dense::{packed_len, Dense};
use crate::sequential::strong::tiers::file::{
    compress_block, damaged, io_error, or_solve_again, reach_bytes, read_solved, read_tier,
    write_blocks, write_tier, Kind, Tier, BLOCK_BYTES,
};
use crate::sequential::strong::tiers::solve::{
    check_budget, load_successors, reach_range, successors, summarize, values_into, Later, Out,
};
use crate::sequential::strong::tiers::{Counts, Summary, Tiered};
use crate::{Error, Result};
use mpi::collective::SystemOperation;
use mpi::topology::{Color, SimpleCommunicator};
use mpi::traits::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// A worker asks for a job.
const ASK: i32 = 1;
/// The manager answers with a job's number, or [`NONE`] when the pass has no more.
const JOB: i32 = 2;
/// The first worker tells the manager how many positions of a tier are reachable.
const COUNT: i32 = 3;
const NONE: u64 = u64::MAX;
/// Ranks a job of the reachability pass covers.
const REACH_JOB: u64 = 1 << 22;
/// Words of bits an all-reduce sends at once (MPI counts in 32-bit integers).
const REDUCE_WORDS: usize = 1 << 26;

/// What one process of the job returns.
#[derive(Debug)]
pub enum Outcome {
    /// Rank 0 (or a job of one process): the database's summary.
    Manager(Summary),
    /// Any other rank: it worked; rank 0 has the answer.
    Worker {
        /// This process's rank.
        rank: i32,
    },
}

/// Strongly solves `g` into `dir` as [`crate::sequential::strong::tiers::solve`] does, with the processes of the MPI job
/// this process belongs to (one process alone, as when not started by `mpirun`, solves it as
/// `solve` does). Initialises MPI, so it is called at most once in a process.
pub fn solve<G: Tiered>(g: &G, dir: &Path, remoteness: bool, max_memory: u64) -> Result<Outcome> {
    let universe = mpi::initialize()
        .ok_or_else(|| Error::Invalid("MPI cannot be started twice in one process".to_string()))?;
    let world = universe.world();
    let result = if world.size() < 2 {
        crate::sequential::strong::tiers::solve(g, dir, remoteness, max_memory)
            .map(Outcome::Manager)
    } else {
        check_budget(g, remoteness, max_memory)
            .and_then(|()| between_tiers(g))
            .and_then(|()| {
                if world.rank() == 0 {
                    let none = world.split_by_color(Color::undefined());
                    debug_assert!(none.is_none());
                    manager(g, dir, remoteness, max_memory, &world).map(Outcome::Manager)
                } else {
                    let team = world
                        .split_by_color(Color::with_value(1))
                        .ok_or_else(|| Error::Invalid("MPI: no communicator of workers".into()))?;
                    worker(g, dir, remoteness, max_memory, &world, &team)
                        .map(|()| Outcome::Worker { rank: world.rank() })
                }
            })
    };
    if result.is_err() {
        // Finalising would wait for the other ranks, which wait for this one: leave without
        // it, so that mpirun stops the job.
        std::mem::forget(universe);
    }
    result
}

/// Refuses a game with moves within a tier: valuing them takes passes over the whole tier,
/// which the jobs of a tier, each on a part of it, cannot do.
fn between_tiers<G: Tiered>(g: &G) -> Result<()> {
    for t in 0..g.tiers() {
        if successors(g, t)?.contains(&t) {
            return Err(Error::Invalid(format!(
                "{}: tier {t} has moves within itself, which the distributed solver does not \
                 take (it splits each tier among the workers); solve it in one process",
                g.name()
            )));
        }
    }
    Ok(())
}

/// Hands out jobs `0..jobs` of a pass to the workers as they ask, then tells each there are
/// no more.
fn serve(world: &SimpleCommunicator, jobs: u64, ranks_per_job: u64, n: u64) -> Result<()> {
    let mut next = 0;
    let mut finished = 0;
    while finished < world.size() - 1 {
        let (_, status) = world.any_process().receive_with_tag::<u64>(ASK);
        let job = if next < jobs {
            next += 1;
            crate::core::progress::tick(((next - 1) * ranks_per_job).min(n))?;
            next - 1
        } else {
            finished += 1;
            NONE
        };
        world
            .process_at_rank(status.source_rank())
            .send_with_tag(&job, JOB);
    }
    Ok(())
}

/// The next job of the pass for this worker, or `None` when the pass is over.
fn ask(world: &SimpleCommunicator) -> Option<u64> {
    let manager = world.process_at_rank(0);
    manager.send_with_tag(&0u64, ASK);
    let (job, _) = manager.receive_with_tag::<u64>(JOB);
    (job != NONE).then_some(job)
}

fn manager<G: Tiered>(
    g: &G,
    dir: &Path,
    remoteness: bool,
    max_memory: u64,
    world: &SimpleCommunicator,
) -> Result<Summary> {
    let name = g.name();
    let tiers = g.tiers();
    crate::core::input::may_read(&dir.display().to_string())?;
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let (t0, _) = g.start();
    for t in t0..tiers {
        let n = g.tier_size(t);
        crate::core::progress::phase(&format!("tier {t}: reachable positions"), n);
        serve(world, n.div_ceil(REACH_JOB), REACH_JOB, n)?;
    }
    let mut counts = vec![Counts::default(); tiers];
    let mut resumed = 0;
    let mut longest = 0u8;
    for t in (0..tiers).rev() {
        let n = g.tier_size(t);
        // Whether the tier is solved already, for every rank to know.
        // A tier counts as solved when its values (and remoteness) and its reachability file
        // all verify; otherwise it is solved again, and its files written anew.
        let values = or_solve_again(read_solved(dir, &name, t, n, None, remoteness, max_memory))?;
        let on_disk = match values {
            Some(solved) => or_solve_again(read_tier(dir, &name, t, n, Kind::Reach, max_memory))?
                .filter(|&(_, m)| m == solved.2)
                .map(|_| solved),
            None => None,
        };
        let mut flag = u64::from(on_disk.is_some());
        world.process_at_rank(0).broadcast_into(&mut flag);
        if let Some((codes, rems, m)) = on_disk {
            resumed += 1;
            counts[t] = Counts::of(&codes, m);
            longest = longest.max(rems.iter().copied().max().unwrap_or(0));
            continue;
        }
        // The first worker has written the tier's reachability file and counts its positions.
        let (m, _) = world.process_at_rank(1).receive_with_tag::<u64>(COUNT);
        let tier = Tier {
            game: &name,
            t,
            n,
            m,
        };
        crate::core::progress::phase(&format!("tier {t}: values"), m);
        let per = 4 * BLOCK_BYTES as u64;
        let blocks = packed_len(m).div_ceil(BLOCK_BYTES) as u64;
        serve(world, blocks, per, m)?;
        // Every block is on disk: check and join them.
        let mut values = Vec::with_capacity(blocks as usize);
        for b in 0..blocks as usize {
            let len = Kind::Values.len(n, m);
            let (packed, crc, codes) = read_part(dir, t, Kind::Values, b, len)?;
            counts[t].add(&Counts::of(&codes, (m - b as u64 * per).min(per)));
            values.push((packed, crc));
        }
        let mut far = Vec::new();
        if remoteness {
            let len = Kind::Remoteness.len(n, m);
            for b in 0..len.div_ceil(BLOCK_BYTES) {
                let (packed, crc, rems) = read_part(dir, t, Kind::Remoteness, b, len)?;
                longest = longest.max(rems.iter().copied().max().unwrap_or(0));
                far.push((packed, crc));
            }
            write_blocks(dir, &tier, Kind::Remoteness, &far, Vec::new())?;
        }
        // The values file last: a tier counts as solved once it is there.
        write_blocks(dir, &tier, Kind::Values, &values, Vec::new())?;
        for b in 0..values.len() {
            let _ = std::fs::remove_file(part_path(dir, t, Kind::Values, b));
        }
        for b in 0..far.len() {
            let _ = std::fs::remove_file(part_path(dir, t, Kind::Remoteness, b));
        }
    }
    summarize(
        g,
        dir,
        counts,
        resumed,
        remoteness.then_some(longest),
        None,
        max_memory,
    )
}

fn worker<G: Tiered>(
    g: &G,
    dir: &Path,
    remoteness: bool,
    max_memory: u64,
    world: &SimpleCommunicator,
    team: &SimpleCommunicator,
) -> Result<()> {
    let name = g.name();
    let tiers = g.tiers();
    let sizes: Vec<u64> = (0..tiers).map(|t| g.tier_size(t)).collect();
    let bits: Vec<Vec<AtomicU64>> = sizes
        .iter()
        .map(|&n| (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
        .collect();
    let (t0, i0) = g.start();
    bits[t0][(i0 / 64) as usize].fetch_or(1 << (i0 % 64), Ordering::Relaxed);
    let done = AtomicU64::new(0);
    let mark = |ct: usize, ci: u64| {
        bits[ct][(ci / 64) as usize].fetch_or(1 << (ci % 64), Ordering::Relaxed);
    };
    for t in t0..tiers {
        let succ = successors(g, t)?;
        while let Some(job) = ask(world) {
            let from = job * REACH_JOB;
            let to = (from + REACH_JOB).min(sizes[t]);
            reach_range(g, t, from..to, &bits[t], &succ, &mark, &done)?;
        }
        // Every worker's marks in the tiers the moves reach, joined.
        for &k in &succ {
            let mine: Vec<u64> = bits[k].iter().map(|w| w.load(Ordering::Relaxed)).collect();
            let mut all = vec![0u64; mine.len()];
            for (a, b) in mine.chunks(REDUCE_WORDS).zip(all.chunks_mut(REDUCE_WORDS)) {
                team.all_reduce_into(a, b, SystemOperation::bitwise_or());
            }
            for (w, v) in bits[k].iter().zip(all) {
                w.store(v, Ordering::Relaxed);
            }
        }
    }
    let mut solved: Vec<Option<Later>> = (0..tiers).map(|_| None).collect();
    for t in (0..tiers).rev() {
        let n = sizes[t];
        let mut flag = 0u64;
        world.process_at_rank(0).broadcast_into(&mut flag);
        if flag == 1 {
            continue;
        }
        let dense = Dense::new(&bits[t]);
        if world.rank() == 1 {
            let tier = Tier {
                game: &name,
                t,
                n,
                m: dense.len(),
            };
            write_tier(dir, &tier, Kind::Reach, &reach_bytes(&bits[t], n))?;
            world.process_at_rank(0).send_with_tag(&dense.len(), COUNT);
        }
        // The tiers its moves reach, as the manager wrote them.
        let succ = successors(g, t)?;
        load_successors(g, dir, &bits, &succ, t, remoteness, max_memory, &mut solved)?;
        let laters: Vec<&Later> = solved.iter().flatten().collect();
        while let Some(b) = ask(world) {
            value_block(g, dir, t, n, b, remoteness, &dense, &laters)?;
        }
    }
    Ok(())
}

/// Values block `b` of tier `t` (reachable positions `4 Mi b ..`, in the order of rank) into
/// its part files (and the remoteness blocks it covers), unless a stopped job left them
/// already.
#[allow(clippy::too_many_arguments)]
fn value_block<G: Tiered>(
    g: &G,
    dir: &Path,
    t: usize,
    n: u64,
    b: u64,
    remoteness: bool,
    dense: &Dense,
    laters: &[&Later],
) -> Result<()> {
    let per = 4 * BLOCK_BYTES as u64;
    let first = b * per;
    let last = (first + per).min(dense.len());
    let rem_blocks = if remoteness {
        (first as usize / BLOCK_BYTES)..(last as usize).div_ceil(BLOCK_BYTES)
    } else {
        0..0
    };
    let exists = |kind: Kind, k: usize| part_path(dir, t, kind, k).exists();
    if exists(Kind::Values, b as usize) && rem_blocks.clone().all(|k| exists(Kind::Remoteness, k)) {
        return Ok(());
    }
    let codes: Vec<AtomicU8> = (0..packed_len(last - first))
        .map(|_| AtomicU8::new(0))
        .collect();
    let rems: Vec<AtomicU8> = (0..if remoteness { last - first } else { 0 })
        .map(|_| AtomicU8::new(0))
        .collect();
    let out = Out {
        dense,
        base: first,
        codes: &codes,
        rems: &rems,
    };
    let (from, to) = (dense.select(first, n), dense.select(last, n));
    values_into(g, t, from, to, &out, laters, &AtomicU64::new(0))?;
    let codes: Vec<u8> = codes.into_iter().map(AtomicU8::into_inner).collect();
    let rems: Vec<u8> = rems.into_iter().map(AtomicU8::into_inner).collect();
    for (k, chunk) in rem_blocks.zip(rems.chunks(BLOCK_BYTES)) {
        write_part(dir, t, Kind::Remoteness, k, chunk)?;
    }
    // The values part last: the block counts as done once it is there.
    write_part(dir, t, Kind::Values, b as usize, &codes)
}

/// The part file of block `b` of a tier file.
fn part_path(dir: &Path, t: usize, kind: Kind, b: usize) -> PathBuf {
    let mut name = kind.path(dir, t).into_os_string();
    name.push(format!(".block-{b}"));
    PathBuf::from(name)
}

/// Writes a block as a part file (its CRC-32, then the block compressed as the tier file
/// holds it), beside its name and renamed, so that a part file that exists is whole.
fn write_part(dir: &Path, t: usize, kind: Kind, b: usize, block: &[u8]) -> Result<()> {
    let path = part_path(dir, t, kind, b);
    crate::core::input::may_read(&path.display().to_string())?;
    let (packed, crc) = compress_block(block).map_err(io_error(&path))?;
    let mut tmp = path.clone().into_os_string();
    tmp.push(".part");
    let tmp = PathBuf::from(tmp);
    let mut file = std::fs::File::create(&tmp).map_err(io_error(&tmp))?;
    file.write_all(&crc.to_le_bytes())
        .and_then(|()| file.write_all(&packed))
        .and_then(|()| file.sync_all())
        .map_err(io_error(&tmp))?;
    std::fs::rename(&tmp, &path).map_err(io_error(&path))
}

/// A part file's compressed block, its CRC-32 and its values, checked against the CRC.
fn read_part(
    dir: &Path,
    t: usize,
    kind: Kind,
    b: usize,
    len: usize,
) -> Result<(Vec<u8>, u32, Vec<u8>)> {
    let path = part_path(dir, t, kind, b);
    crate::core::input::may_read(&path.display().to_string())?;
    let bytes = std::fs::read(&path).map_err(io_error(&path))?;
    let damaged = || damaged(&path, "a damaged block");
    let (head, packed) = bytes.split_at_checked(4).ok_or_else(damaged)?;
    let crc = u32::from_le_bytes(head.try_into().map_err(|_| damaged())?);
    let want = (len - b * BLOCK_BYTES).min(BLOCK_BYTES);
    let values =
        crate::sequential::strong::tiers::file::inflate(packed, want, crc).ok_or_else(damaged)?;
    Ok((packed.to_vec(), crc, values))
}
