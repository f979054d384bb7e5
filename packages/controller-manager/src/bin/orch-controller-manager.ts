#!/usr/bin/env node
import { runDaemon } from '@orch/component-base';
import { controllerManagerDaemon } from '../app/controllerManagerDaemon';

void runDaemon(controllerManagerDaemon());
