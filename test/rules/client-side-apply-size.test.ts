import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('client-side-apply-size');
