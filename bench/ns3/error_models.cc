// Chunk success rates of ns-3 3.44's error-rate models, as CSV on stdout, for airtcp's
// cross-check (bench/bench_error_models.py against crates/airtcp-core/src/phy/error.rs).
//
// For every non-HT mode airtcp has (DSSS 1/2, HR/DSSS 5.5/11, OFDM and ERP-OFDM 6..54 Mbit/s)
// and every model (NistErrorRateModel, YansErrorRateModel; for DSSS modes also the static
// DsssErrorRateModel functions, which both of the others call through
// ErrorRateModel::GetChunkSuccessRate), prints:
//   csr,<model>,<mode>,<bits>,<snr_db>,<success>   for bits in {8000, 48} and
//                                                  snr_db = -5, -4.5, ..., 35
//   per10,<model>,<mode>,<bits>,,<snr_db>          the SNR [dB] at which the chunk error rate
//                                                  is 10 %, by bisection in dB (60 halvings of
//                                                  [-30, 60] dB; the success rate is
//                                                  non-decreasing in the SNR)
// The SNR handed to the model is linear, as InterferenceHelper does. The tx vector is the one
// the receiver sees for a data field: the mode itself, long preamble, 22 MHz for DSSS and
// 20 MHz for OFDM (YANS takes the signal spread and the PHY rate from it).
//
// Usage: error_models [--bits=8000,48]

#include "ns3/core-module.h"
#include "ns3/wifi-module.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const kModes[] = {
    "DsssRate1Mbps",     "DsssRate2Mbps",     "DsssRate5_5Mbps",   "DsssRate11Mbps",
    "OfdmRate6Mbps",     "OfdmRate9Mbps",     "OfdmRate12Mbps",    "OfdmRate18Mbps",
    "OfdmRate24Mbps",    "OfdmRate36Mbps",    "OfdmRate48Mbps",    "OfdmRate54Mbps",
    "ErpOfdmRate6Mbps",  "ErpOfdmRate9Mbps",  "ErpOfdmRate12Mbps", "ErpOfdmRate18Mbps",
    "ErpOfdmRate24Mbps", "ErpOfdmRate36Mbps", "ErpOfdmRate48Mbps", "ErpOfdmRate54Mbps",
};

bool
IsDsss(const WifiMode& mode)
{
    return mode.GetModulationClass() == WIFI_MOD_CLASS_DSSS ||
           mode.GetModulationClass() == WIFI_MOD_CLASS_HR_DSSS;
}

/// ErrorRateModel::GetChunkSuccessRate's DSSS branch, called directly.
double
DsssChunkSuccessRate(const WifiMode& mode, double snr, uint64_t nbits)
{
    switch (mode.GetDataRate(MHz_u{22}))
    {
    case 1000000:
        return DsssErrorRateModel::GetDsssDbpskSuccessRate(snr, nbits);
    case 2000000:
        return DsssErrorRateModel::GetDsssDqpskSuccessRate(snr, nbits);
    case 5500000:
        return DsssErrorRateModel::GetDsssDqpskCck5_5SuccessRate(snr, nbits);
    case 11000000:
        return DsssErrorRateModel::GetDsssDqpskCck11SuccessRate(snr, nbits);
    default:
        std::fprintf(stderr, "unknown DSSS rate\n");
        std::exit(1);
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string bitsArg = "8000,48";
    CommandLine cmd(__FILE__);
    cmd.AddValue("bits", "comma-separated chunk sizes [bits]", bitsArg);
    cmd.Parse(argc, argv);
    std::vector<uint64_t> bitsList;
    {
        std::stringstream ss(bitsArg);
        std::string item;
        while (std::getline(ss, item, ','))
        {
            bitsList.push_back(std::stoull(item));
        }
    }

    Ptr<NistErrorRateModel> nist = CreateObject<NistErrorRateModel>();
    Ptr<YansErrorRateModel> yans = CreateObject<YansErrorRateModel>();

    std::printf("kind,model,mode,bits,snr_db,value\n");
    for (const char* name : kModes)
    {
        WifiMode mode(name);
        WifiTxVector txVector;
        txVector.SetMode(mode);
        txVector.SetPreambleType(WIFI_PREAMBLE_LONG);
        txVector.SetChannelWidth(IsDsss(mode) ? MHz_u{22} : MHz_u{20});

        struct Model
        {
            const char* label;
            std::function<double(double, uint64_t)> csr;
        };

        std::vector<Model> models{
            {"nist",
             [&](double snr, uint64_t n) {
                 return nist->GetChunkSuccessRate(mode, txVector, snr, n);
             }},
            {"yans",
             [&](double snr, uint64_t n) {
                 return yans->GetChunkSuccessRate(mode, txVector, snr, n);
             }},
        };
        if (IsDsss(mode))
        {
            models.push_back(
                {"dsss", [&](double snr, uint64_t n) { return DsssChunkSuccessRate(mode, snr, n); }});
        }

        for (const auto& model : models)
        {
            for (uint64_t bits : bitsList)
            {
                for (int i = -10; i <= 70; ++i)
                {
                    double snrDb = 0.5 * i;
                    double snr = std::pow(10.0, snrDb / 10.0);
                    std::printf("csr,%s,%s,%llu,%.1f,%.17g\n",
                                model.label,
                                name,
                                static_cast<unsigned long long>(bits),
                                snrDb,
                                model.csr(snr, bits));
                }
                double lo = -30.0;
                double hi = 60.0;
                for (int k = 0; k < 60; ++k)
                {
                    double mid = 0.5 * (lo + hi);
                    if (model.csr(std::pow(10.0, mid / 10.0), bits) < 0.9)
                    {
                        lo = mid;
                    }
                    else
                    {
                        hi = mid;
                    }
                }
                std::printf("per10,%s,%s,%llu,,%.12f\n",
                            model.label,
                            name,
                            static_cast<unsigned long long>(bits),
                            0.5 * (lo + hi));
            }
        }
    }
    return 0;
}
