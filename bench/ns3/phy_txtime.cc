// phy_txtime.cc -- ns-3 3.44 reference for airtcp: 802.11ac (VHT SU) and 802.11ax (HE SU) PPDU
// durations and rates, straight from ns-3's static PHY functions (no simulation is run).
//
// For each case it builds a WifiTxVector the way src/wifi/test/tx-duration-test.cc does
// (mode, preamble, channel width, guard interval, NSS, no STBC, Ness 0) and prints one CSV row:
//
//   standard       "vht" (VhtPhy::GetVhtMcs(mcs), WIFI_PREAMBLE_VHT_SU) or
//                  "he"  (HePhy::GetHeMcs(mcs),  WIFI_PREAMBLE_HE_SU)
//   mcs, width_mhz, nss, gi_ns, length_bytes   the case (length = PSDU length in bytes)
//   allowed        WifiMode::IsAllowed(txVector) = VhtPhy::IsCombinationAllowed(mcs, width, nss)
//                  for VHT, HePhy::IsAllowed (always true) for HE. 0 -> the following
//                  columns data_rate_bps..duration_ns are left empty (VhtPhy::GetDataRate asserts
//                  on a disallowed combination).
//   data_rate_bps  WifiMode::GetDataRate(txVector)
//   n_dbps         the data bits per symbol ns-3 uses in HtPhy::GetPayloadDuration: the double
//                  GetDataRate(txVector) * T_SYM[ns] / 1e9 (not always an integer: the data rate
//                  is rounded up to a whole bit/s first), printed with %.10g
//   n_es           number of BCC encoders ns-3 uses (the PhyEntity's GetNumberBccEncoders(),
//                  protected/private in VhtPhy/HePhy, reached through a pointer to member of
//                  the static PHY entity WifiPhy::GetStaticPhyEntity(modulation class))
//   duration_ns    WifiPhy::CalculateTxDuration(length, txVector, WIFI_PHY_BAND_5GHZ, SU_STA_ID)
//   preamble_ns    WifiPhy::CalculatePhyPreambleAndHeaderDuration(txVector)
//   nonht_ref_bps  WifiMode::GetNonHtReferenceRate() (non-HT reference rate of the MCS, used to
//                  pick the rate of control responses)
//   txvector_valid WifiTxVector::IsValid(WIFI_PHY_BAND_5GHZ): the check WifiPhy::Send() applies
//                  (NS_FATAL_ERROR "TX-VECTOR is invalid!"); stricter than `allowed` for VHT
//                  160 MHz NSS 3 MCS 9. Duration columns are still printed when only this is 0.
//
// Cases: VHT MCS 0-9 x 20/40/80/160 MHz x NSS 1-4 x GI 800/400 x length 1, 1500, 65535,
//        1048575 (1048575 = 2^20-1, the largest VHT A-MPDU; ns-3 computes the duration of an
//        A-MPDU from its total PSDU size with the same formula, PhyEntity::CalculateTxDuration);
//        HE MCS 0-11 x 20/40/80/160 MHz x NSS 1-4 x GI 800/1600/3200 x length 1, 1500, 65535.
//
// On stderr: a summary comparing ns-3's VHT durations with the IEEE 802.11-2016 21.4.3 formula
// computed here with integer N_DBPS (see NOTES.md, "VHT and HE TXTIME reference").
//
// Usage: bench/ns3/build/phy_txtime > bench/ns3/txtime_reference.csv

#include "ns3/he-phy.h"
#include "ns3/nstime.h"
#include "ns3/vht-phy.h"
#include "ns3/wifi-mode.h"
#include "ns3/wifi-phy.h"
#include "ns3/wifi-tx-vector.h"

#include <cstdint>
#include <cstdio>
#include <string>

using namespace ns3;

namespace
{

// GetNumberBccEncoders() is protected in VhtPhy and private in HePhy. A using-declaration in a
// class derived from VhtPhy makes VhtPhy's (virtual) member nameable; calling the pointer to
// member on the static entity dispatches virtually to VhtPhy's or HePhy's override.
// The same trick exposes HtPhy's protected static GetSymbolDuration(Time) used for VHT.
struct NesAccess : VhtPhy
{
    using VhtPhy::GetNumberBccEncoders;
    using VhtPhy::GetSymbolDuration;
};

uint8_t
NumberBccEncoders(WifiModulationClass mc, const WifiTxVector& txVector)
{
    const auto entity = WifiPhy::GetStaticPhyEntity(mc);
    const auto* vht = dynamic_cast<const VhtPhy*>(PeekPointer(entity));
    NS_ABORT_MSG_IF(vht == nullptr, "static PHY entity is not a VhtPhy");
    uint8_t (VhtPhy::*pmf)(const WifiTxVector&) const = &NesAccess::GetNumberBccEncoders;
    return (vht->*pmf)(txVector);
}

// Subcarriers and bits of the MCS tables (IEEE 802.11-2016 21.5, 802.11ax-2021 27.5), for the
// integer N_DBPS of the stderr comparison.
uint32_t
VhtDataSubcarriers(uint16_t w)
{
    return w == 20 ? 52 : w == 40 ? 108 : w == 80 ? 234 : 468;
}

struct Stats
{
    uint32_t rows = 0;
    uint32_t ndbpsFractional = 0;  // N_CBPS * R is not an integer (HE MCS 9, 80/160 MHz)
    uint32_t ndbpsNonInteger = 0;  // ns-3's double N_DBPS differs from the integer one
    uint32_t nsymMismatch = 0;     // ns-3's N_SYM != ceil((16+8L+6N_ES)/N_DBPS) with integer N_DBPS
    uint32_t sgiRoundingDiff = 0;  // SGI rows where 21.4.3's 4 us rounding gives a longer TXTIME
    uint32_t overMaxPpdu = 0;      // duration > aPPDUMaxTime (5.484 ms)
};

void
PrintRow(const char* standard,
         WifiMode mode,
         WifiPreamble preamble,
         WifiModulationClass mc,
         uint16_t width,
         uint8_t nss,
         uint16_t giNs,
         uint32_t length,
         Stats& st)
{
    WifiTxVector txVector;
    txVector.SetMode(mode);
    txVector.SetPreambleType(preamble);
    txVector.SetChannelWidth(MHz_u{static_cast<double>(width)});
    txVector.SetGuardInterval(NanoSeconds(giNs));
    txVector.SetNss(nss);
    txVector.SetStbc(false);
    txVector.SetNess(0);

    const bool allowed = mode.IsAllowed(txVector);
    const bool valid = txVector.IsValid(WIFI_PHY_BAND_5GHZ);
    const Time preamble_t = WifiPhy::CalculatePhyPreambleAndHeaderDuration(txVector);
    const uint64_t nonHtRef = mode.GetNonHtReferenceRate();

    std::printf("%s,%u,%u,%u,%u,%u,%d,", standard, mode.GetMcsValue(), width, nss, giNs, length,
                allowed ? 1 : 0);
    if (!allowed)
    {
        std::printf(",,,,%lld,%llu,%d\n",
                    static_cast<long long>(preamble_t.GetNanoSeconds()),
                    static_cast<unsigned long long>(nonHtRef),
                    valid ? 1 : 0);
        return;
    }
    const uint64_t rate = mode.GetDataRate(txVector);
    const Time tSym = (mc == WIFI_MOD_CLASS_HE) ? HePhy::GetSymbolDuration(NanoSeconds(giNs))
                                                : NesAccess::GetSymbolDuration(NanoSeconds(giNs));
    // exactly the expression of HtPhy::GetPayloadDuration (ht-phy.cc:285-286)
    const double nDbps = rate * tSym.GetNanoSeconds() / 1e9;
    const uint8_t nes = NumberBccEncoders(mc, txVector);
    const Time duration = WifiPhy::CalculateTxDuration(length, txVector, WIFI_PHY_BAND_5GHZ, SU_STA_ID);

    std::printf("%llu,%.10g,%u,%lld,%lld,%llu,%d\n",
                static_cast<unsigned long long>(rate),
                nDbps,
                nes,
                static_cast<long long>(duration.GetNanoSeconds()),
                static_cast<long long>(preamble_t.GetNanoSeconds()),
                static_cast<unsigned long long>(nonHtRef),
                valid ? 1 : 0);

    // ---- comparison with the textbook formula (stderr summary only) ----
    ++st.rows;
    if (duration > MicroSeconds(5484))
    {
        ++st.overMaxPpdu;
    }
    const uint32_t nsd = (mc == WIFI_MOD_CLASS_HE)
                             ? (width == 20 ? 234 : width == 40 ? 468 : width == 80 ? 980 : 1960)
                             : VhtDataSubcarriers(width);
    uint32_t bits = 0;
    uint32_t num = 0;
    uint32_t den = 0;
    {
        const uint8_t m = mode.GetMcsValue();
        static const uint8_t kBits[12] = {1, 2, 2, 4, 4, 6, 6, 6, 8, 8, 10, 10};
        static const uint8_t kNum[12] = {1, 1, 3, 1, 3, 2, 3, 5, 3, 5, 3, 5};
        static const uint8_t kDen[12] = {2, 2, 4, 2, 4, 3, 4, 6, 4, 6, 4, 6};
        bits = kBits[m];
        num = kNum[m];
        den = kDen[m];
    }
    const uint64_t ndbpsNum = static_cast<uint64_t>(nss) * nsd * bits * num;
    if (ndbpsNum % den != 0)
    {
        // N_CBPS * R not an integer: only HE MCS 9 at 80/160 MHz here (980 or 1960 tones x 8
        // bits x 5/6); 802.11ax takes N_DBPS = floor(N_CBPS * R) (e.g. 6533 -> 480.4 Mb/s)
        ++st.ndbpsFractional;
    }
    const uint64_t ndbpsInt = ndbpsNum / den; // floor
    if (static_cast<double>(ndbpsInt) != nDbps)
    {
        ++st.ndbpsNonInteger;
    }
    const uint64_t payloadBits = 16 + 8ULL * length + 6ULL * nes;
    const uint64_t nsymStd = (payloadBits + ndbpsInt - 1) / ndbpsInt;
    const int64_t payloadNs = duration.GetNanoSeconds() - preamble_t.GetNanoSeconds();
    const int64_t nsymNs3 = payloadNs / tSym.GetNanoSeconds();
    if (payloadNs % tSym.GetNanoSeconds() != 0 || static_cast<uint64_t>(nsymNs3) != nsymStd)
    {
        ++st.nsymMismatch;
        std::fprintf(stderr,
                     "N_SYM mismatch: %s mcs %u %u MHz nss %u gi %u len %u: ns-3 %lld, integer "
                     "N_DBPS %llu -> %llu\n",
                     standard, mode.GetMcsValue(), width, nss, giNs, length,
                     static_cast<long long>(nsymNs3),
                     static_cast<unsigned long long>(ndbpsInt),
                     static_cast<unsigned long long>(nsymStd));
    }
    if (mc == WIFI_MOD_CLASS_VHT && giNs == 400)
    {
        // 21.4.3, eq. (21-65) (short GI): T_SYML * ceil(T_SYMS * N_SYM / T_SYML)
        const uint64_t stdPayloadNs = 4000 * ((3600 * nsymStd + 3999) / 4000);
        if (stdPayloadNs != static_cast<uint64_t>(payloadNs))
        {
            ++st.sgiRoundingDiff;
        }
    }
}

} // namespace

int
main()
{
    const uint16_t widths[] = {20, 40, 80, 160};
    std::printf("standard,mcs,width_mhz,nss,gi_ns,length_bytes,allowed,data_rate_bps,n_dbps,n_es,"
                "duration_ns,preamble_ns,nonht_ref_bps,txvector_valid\n");

    Stats vht;
    for (uint8_t mcs = 0; mcs <= 9; ++mcs)
    {
        for (uint16_t w : widths)
        {
            for (uint8_t nss = 1; nss <= 4; ++nss)
            {
                for (uint16_t gi : {800, 400})
                {
                    for (uint32_t len : {1U, 1500U, 65535U, 1048575U})
                    {
                        PrintRow("vht", VhtPhy::GetVhtMcs(mcs), WIFI_PREAMBLE_VHT_SU,
                                 WIFI_MOD_CLASS_VHT, w, nss, gi, len, vht);
                    }
                }
            }
        }
    }
    Stats he;
    for (uint8_t mcs = 0; mcs <= 11; ++mcs)
    {
        for (uint16_t w : widths)
        {
            for (uint8_t nss = 1; nss <= 4; ++nss)
            {
                for (uint16_t gi : {800, 1600, 3200})
                {
                    for (uint32_t len : {1U, 1500U, 65535U})
                    {
                        PrintRow("he", HePhy::GetHeMcs(mcs), WIFI_PREAMBLE_HE_SU,
                                 WIFI_MOD_CLASS_HE, w, nss, gi, len, he);
                    }
                }
            }
        }
    }
    auto summary = [](const char* name, const Stats& st) {
        std::fprintf(stderr,
                     "%s: %u allowed rows; N_CBPS*R fractional in %u; ns-3 N_DBPS (double) != "
                     "integer N_DBPS in %u; N_SYM "
                     "differs from ceil((16+8L+6N_ES)/N_DBPS) in %u; short-GI 4 us rounding "
                     "(21.4.3) would lengthen %u; duration > 5.484 ms in %u\n",
                     name, st.rows, st.ndbpsFractional, st.ndbpsNonInteger, st.nsymMismatch, st.sgiRoundingDiff,
                     st.overMaxPpdu);
    };
    summary("vht", vht);
    summary("he", he);
    std::fprintf(stderr,
                 "WifiPhy::GetMaxPsduSize: VHT %u, HE %u bytes; GetPpduMaxTime(VHT_SU) %lld ns, "
                 "GetPpduMaxTime(HE_SU) %lld ns\n",
                 WifiPhy::GetMaxPsduSize(WIFI_MOD_CLASS_VHT),
                 WifiPhy::GetMaxPsduSize(WIFI_MOD_CLASS_HE),
                 static_cast<long long>(GetPpduMaxTime(WIFI_PREAMBLE_VHT_SU).GetNanoSeconds()),
                 static_cast<long long>(GetPpduMaxTime(WIFI_PREAMBLE_HE_SU).GetNanoSeconds()));
    return 0;
}
