import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('upgrade-safety');
