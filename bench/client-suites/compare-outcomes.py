"""Per test, two runs of a client's own suite (junit XML from pytest, or mocha's JSON, by suffix): what
passed on one daemon and not on the other.

  python3 compare-outcomes.py DOCKERD_REPORT REFERENCE_REPORT
"""
import json
import sys
import xml.etree.ElementTree as ET


def outcomes(path):
    """Test name → passed, failure, error, skipped (pytest) or passed, failed, pending (mocha)."""
    if path.endswith('.xml'):
        result = {}
        for case in ET.parse(path).getroot().iter('testcase'):
            kinds = [child.tag for child in case if child.tag in ('failure', 'error', 'skipped')]
            result[f"{case.get('classname')}::{case.get('name')}"] = kinds[0] if kinds else 'passed'
        return result
    report = json.load(open(path))
    result = {test['fullTitle']: 'failed' for test in report['failures']}
    result.update({test['fullTitle']: 'pending' for test in report['pending']})
    result.update({test['fullTitle']: 'passed' for test in report['passes']})
    return result


def main():
    dockerd, reference = (outcomes(path) for path in sys.argv[1:3])
    passed = lambda run: sum(status == 'passed' for status in run.values())
    print(f'dockerd: {passed(dockerd)} passed of {len(dockerd)}; reference: {passed(reference)} passed of {len(reference)}')
    for title, one, other in (('passed on dockerd, not on the reference', dockerd, reference), ('passed on the reference, not on dockerd', reference, dockerd)):
        names = sorted(name for name, status in one.items() if status == 'passed' and other.get(name) != 'passed')
        print(f'\n{title} ({len(names)}):')
        for name in names:
            print(f'  {name}: {other.get(name, "absent")}')


main()
